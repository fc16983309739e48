//! Small text helpers shared by every layer.

/// First line of `s`, cut at `max` bytes on a char boundary, with `…` when anything was cut
/// (a longer line or further lines).
pub fn one_line(s: &str, max: usize) -> String {
    let first = s.lines().next().unwrap_or("");
    if first.len() <= max && !s.contains('\n') {
        return first.to_string();
    }
    format!("{}…", &first[..floor_char_boundary(first, max)])
}

/// The largest char boundary of `s` at or below `i`.
pub fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary of `s` at or above `i`.
pub fn ceil_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// `1 file`, `2 files`: a count with the right form of the noun (regular plurals only, or
/// the plural given).
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_cuts_on_char_boundary_and_marks_more_lines() {
        assert_eq!(one_line("abc", 10), "abc");
        assert_eq!(one_line("abc\ndef", 10), "abc…");
        assert_eq!(one_line("ééé", 3), "é…");
        assert_eq!(one_line("", 3), "");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "error", "errors"), "1 error");
        assert_eq!(plural(0, "error", "errors"), "0 errors");
    }
}
