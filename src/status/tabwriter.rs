//! Elastic tabstops exactly as Go's `text/tabwriter` lays them out with the settings oc uses
//! (`status`: minimum width 0, padding 3; `recommend`: minimum width 14, padding 1; space
//! padding): cells end at tabs, a line's last cell does not take part in alignment, and a
//! column's width is set per block of consecutive lines that have a cell in it. (A line
//! without a tab ends every block, which is where Go's writer flushes.)

/// Aligns tab-separated `text` (cells end at `\t`, lines at `\n`) with `padding` spaces
/// between columns. Widths count characters, as Go counts runes.
pub fn align(text: &str, padding: usize) -> String {
    align_min(text, 0, padding)
}

/// [`align`] with columns at least `minwidth` wide (padding included).
pub fn align_min(text: &str, minwidth: usize, padding: usize) -> String {
    let lines: Vec<Vec<&str>> = text.split('\n').map(|l| l.split('\t').collect()).collect();
    let mut out = String::with_capacity(text.len() * 2);
    let mut widths = Vec::new();
    let pad = Pad { minwidth, padding };
    format_block(&lines, 0, lines.len(), &mut widths, pad, &mut out);
    out
}

#[derive(Clone, Copy)]
struct Pad {
    minwidth: usize,
    padding: usize,
}

fn cell_width(c: &str) -> usize {
    c.chars().count()
}

/// Go's recursive column-block formatting of `lines[line0..line1]`, with the widths of the
/// columns to the left already in `widths`.
fn format_block(
    lines: &[Vec<&str>],
    mut line0: usize,
    line1: usize,
    widths: &mut Vec<usize>,
    pad: Pad,
    out: &mut String,
) {
    let column = widths.len();
    let mut this = line0;
    while this < line1 {
        // A line takes part in this column when it has a cell here that is not its last.
        if column + 1 >= lines[this].len() {
            this += 1;
            continue;
        }
        write_lines(lines, line0, this, widths, out);
        line0 = this;
        let mut width = pad.minwidth;
        while this < line1 && column + 1 < lines[this].len() {
            width = width.max(cell_width(lines[this][column]) + pad.padding);
            this += 1;
        }
        widths.push(width);
        format_block(lines, line0, this, widths, pad, out);
        widths.pop();
        line0 = this;
    }
    write_lines(lines, line0, line1, widths, out);
}

fn write_lines(
    lines: &[Vec<&str>],
    line0: usize,
    line1: usize,
    widths: &[usize],
    out: &mut String,
) {
    for (i, line) in lines.iter().enumerate().take(line1).skip(line0) {
        for (j, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if let Some(&w) = widths.get(j)
                && j + 1 < line.len()
            {
                let pad = w.saturating_sub(cell_width(cell));
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        if i + 1 < lines.len() {
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimum_width_pads_short_columns() {
        // recommend's table: minimum 14, padding 1.
        let t = "  VERSION\tISSUES\n  4.16.15\tno known issues\n";
        assert_eq!(
            align_min(t, 14, 1),
            "  VERSION     ISSUES\n  4.16.15     no known issues\n"
        );
        let t = "  4.17.0-0.nightly-2024-01-01-000000\tx\n";
        assert_eq!(
            align_min(t, 14, 1),
            "  4.17.0-0.nightly-2024-01-01-000000 x\n"
        );
    }

    #[test]
    fn columns_align_per_block_and_last_cells_do_not_count() {
        let t = "\nNAME\tA\tMESSAGE\nlonger-name\tB\tsome long message\n";
        assert_eq!(
            align(t, 3),
            "\nNAME          A   MESSAGE\nlonger-name   B   some long message\n"
        );
        // A line without tabs ends a block: the next lines align on their own.
        let t = "a\tb\nxxxxxx\tb\nbreak\nc\td\n";
        assert_eq!(align(t, 3), "a        b\nxxxxxx   b\nbreak\nc   d\n");
        // Empty cells are padded; multi-line messages continue in the last column.
        let t = "w\tEmpty\t\t0 Total\nworker\tPending\t0% (0/3)\t3 Available\n";
        assert_eq!(
            align(t, 3),
            "w        Empty                0 Total\nworker   Pending   0% (0/3)   3 Available\n"
        );
    }
}
