//! Go's `sort.Slice` and `sort.SliceStable`, step for step, because oc orders Update Health
//! with them and the order of equal elements is part of what oc prints. `sort.Slice` is Go's
//! pattern-defeating quicksort (Go 1.19+): insertion sort up to 12 elements, which keeps ties
//! in input order, and beyond that partitions that move equal elements around in a fixed,
//! data-dependent way (its "random" pattern breaker is seeded by the length, so the result is
//! deterministic). `sort.SliceStable` is insertion sort over blocks of 20 merged by SymMerge.
//! Only the element order is reproduced; both take the same `less(a, b)` Go's callers give.

/// `sort.Slice(v, less)`: Go's unstable pdqsort.
pub fn slice<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    let limit = bits_len(n);
    let mut d = Data { v, less: &less };
    pdqsort(&mut d, 0, n, limit);
}

/// `sort.SliceStable(v, less)`: Go's insertion sort and SymMerge.
pub fn slice_stable<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    let mut d = Data { v, less: &less };
    stable(&mut d, n);
}

struct Data<'a, T, F> {
    v: &'a mut [T],
    less: &'a F,
}

impl<T, F: Fn(&T, &T) -> bool> Data<'_, T, F> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.v[i], &self.v[j])
    }
    fn swap(&mut self, i: usize, j: usize) {
        self.v.swap(i, j);
    }
}

/// `bits.Len`: the number of bits needed to represent `n`.
fn bits_len(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

fn insertion_sort<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && d.less(j, j - 1) {
            d.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, lo: usize, hi: usize, first: usize) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && d.less(first + child, first + child + 1) {
            child += 1;
        }
        if !d.less(first + root, first + child) {
            return;
        }
        d.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, a: usize, b: usize) {
    let first = a;
    let hi = b - a;
    if hi > 0 {
        for i in (0..=(hi - 1) / 2).rev() {
            sift_down(d, i, hi, first);
        }
    }
    for i in (0..hi).rev() {
        d.swap(first, first + i);
        sift_down(d, 0, i, first);
    }
}

fn pdqsort<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<'_, T, F>,
    mut a: usize,
    mut b: usize,
    mut limit: usize,
) {
    const MAX_INSERTION: usize = 12;
    let mut was_balanced = true;
    let mut was_partitioned = true;
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(d, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(d, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(d, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(d, a, b);
        if hint == Hint::Decreasing {
            reverse_range(d, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced
            && was_partitioned
            && hint == Hint::Increasing
            && partial_insertion_sort(d, a, b)
        {
            return;
        }
        if a > 0 && !d.less(a - 1, pivot) {
            a = partition_equal(d, a, b, pivot);
            continue;
        }
        let (mid, already) = partition(d, a, b, pivot);
        was_partitioned = already;
        let (left, right) = (mid - a, b - mid);
        let balance_threshold = length / 8;
        if left < right {
            was_balanced = left >= balance_threshold;
            pdqsort(d, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right >= balance_threshold;
            pdqsort(d, mid + 1, b, limit);
            b = mid;
        }
    }
}

fn partition<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> (usize, bool) {
    d.swap(a, pivot);
    // i and j are inclusive bounds of what is left to partition; j may go one below a+1.
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    let at = |x: isize| x as usize;
    while i <= j && d.less(at(i), a) {
        i += 1;
    }
    while i <= j && !d.less(at(j), a) {
        j -= 1;
    }
    if i > j {
        d.swap(at(j), a);
        return (at(j), true);
    }
    d.swap(at(i), at(j));
    i += 1;
    j -= 1;
    loop {
        while i <= j && d.less(at(i), a) {
            i += 1;
        }
        while i <= j && !d.less(at(j), a) {
            j -= 1;
        }
        if i > j {
            break;
        }
        d.swap(at(i), at(j));
        i += 1;
        j -= 1;
    }
    d.swap(at(j), a);
    (at(j), false)
}

fn partition_equal<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> usize {
    d.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    let at = |x: isize| x as usize;
    loop {
        while i <= j && !d.less(a, at(i)) {
            i += 1;
        }
        while i <= j && d.less(a, at(j)) {
            j -= 1;
        }
        if i > j {
            break;
        }
        d.swap(at(i), at(j));
        i += 1;
        j -= 1;
    }
    at(i)
}

fn partial_insertion_sort<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !d.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        d.swap(i, i - 1);
        // Shift the smaller one to the left (Go walks down to index 1, not to a).
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 {
                if !d.less(j, j - 1) {
                    break;
                }
                d.swap(j, j - 1);
                j -= 1;
            }
        }
        // Shift the greater one to the right.
        if b - i >= 2 {
            for j in i + 1..b {
                if !d.less(j, j - 1) {
                    break;
                }
                d.swap(j, j - 1);
            }
        }
    }
    false
}

/// Go's `xorshift` of package sort, seeded with the length.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn break_patterns<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, a: usize, b: usize) {
    let length = b - a;
    if length >= 8 {
        let mut random = XorShift(length as u64);
        let modulus = 1usize << bits_len(length);
        let base = a + (length / 4) * 2;
        for idx in base - 1..=base + 1 {
            let mut other = (random.next() as usize) & (modulus - 1);
            if other >= length {
                other -= length;
            }
            d.swap(idx, a + other);
        }
    }
}

fn choose_pivot<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0usize;
    let mut i = a + l / 4;
    let mut j = a + l / 4 * 2;
    let mut k = a + l / 4 * 3;
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median(d, i - 1, i, i + 1, &mut swaps);
            j = median(d, j - 1, j, j + 1, &mut swaps);
            k = median(d, k - 1, k, k + 1, &mut swaps);
        }
        j = median(d, i, j, k, &mut swaps);
    }
    match swaps {
        0 => (j, Hint::Increasing),
        MAX_SWAPS => (j, Hint::Decreasing),
        _ => (j, Hint::Unknown),
    }
}

fn order2<T, F: Fn(&T, &T) -> bool>(
    d: &Data<'_, T, F>,
    a: usize,
    b: usize,
    swaps: &mut usize,
) -> (usize, usize) {
    if d.less(b, a) {
        *swaps += 1;
        (b, a)
    } else {
        (a, b)
    }
}

fn median<T, F: Fn(&T, &T) -> bool>(
    d: &Data<'_, T, F>,
    a: usize,
    b: usize,
    c: usize,
    swaps: &mut usize,
) -> usize {
    let (a, b) = order2(d, a, b, swaps);
    let (b, c) = order2(d, b, c, swaps);
    let (_a, b) = order2(d, a, b, swaps);
    let _ = c;
    b
}

fn reverse_range<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, a: usize, b: usize) {
    let (mut i, mut j) = (a, b - 1);
    while i < j {
        d.swap(i, j);
        i += 1;
        j -= 1;
    }
}

fn swap_range<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, a: usize, b: usize, n: usize) {
    for i in 0..n {
        d.swap(a + i, b + i);
    }
}

fn stable<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, n: usize) {
    let mut block = 20usize;
    let (mut a, mut b) = (0usize, block);
    while b <= n {
        insertion_sort(d, a, b);
        a = b;
        b += block;
    }
    insertion_sort(d, a, n);
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(d, a, a + block, b);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(d, a, m, n);
        }
        block *= 2;
    }
}

fn sym_merge<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, a: usize, m: usize, b: usize) {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if d.less(h, a) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            d.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !d.less(m, h) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            d.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !d.less(p - c, c) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(d, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(d, a, start, mid);
    }
    if mid < end && end < b {
        sym_merge(d, mid, end, b);
    }
}

fn rotate<T, F: Fn(&T, &T) -> bool>(d: &mut Data<'_, T, F>, a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(d, m - i, m, j);
            i -= j;
        } else {
            swap_range(d, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(d, m - i, m, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorting pairs by key alone: the keys come out sorted whatever the ties do.
    #[test]
    fn sorts_by_key_at_every_length() {
        let mut rand = crate::vocab::testing::xorshift(0x9e37_79b9_7f4a_7c15);
        for n in 0..300 {
            let mut v: Vec<(u64, usize)> = (0..n).map(|i| (rand(7), i)).collect();
            let mut s = v.clone();
            slice(&mut v, |a, b| a.0 < b.0);
            assert!(v.windows(2).all(|w| w[0].0 <= w[1].0), "n={n}");
            slice_stable(&mut s, |a, b| a.0 < b.0);
            let mut want = s.clone();
            want.sort_by_key(|p| p.0);
            assert_eq!(s, want, "stable, n={n}");
        }
    }

    #[test]
    fn up_to_twelve_ties_keep_input_order() {
        let mut v: Vec<(u8, usize)> = (0..12).map(|i| (0, i)).collect();
        slice(&mut v, |a, b| a.0 < b.0);
        assert_eq!(
            v.iter().map(|p| p.1).collect::<Vec<_>>(),
            (0..12).collect::<Vec<_>>()
        );
    }
}
