// std::nth_element as libstdc++ (GCC's C++ library, which BitShares Core builds with) runs it:
// introselect (median-of-three partitions, then an insertion sort of at most three elements, or a
// heap select once the depth limit is spent), from bits/stl_algo.h and bits/stl_heap.h.
//
// Core takes the median of each field of the live price feeds with std::nth_element, one field after
// the other on the same vector (asset_bitasset_data_object::update_median_feeds). Which of several
// equal elements lands in the middle depends on this exact sequence of swaps, and it shows: two
// feeds' prices can be equal as ratios (1/20 and 2/40) yet be written differently, and the one
// picked is what median_feed, current_feed and the asset's core_exchange_rate then hold.
// A leaf module: it imports nothing.

/** Rearranges `a` in place as std::nth_element( a.begin(), a.begin() + nth, a.end(), less ) does. */
export function nthElement<T>(a: T[], nth: number, less: (x: T, y: T) => boolean): void {
  const n = a.length;
  if (n === 0 || nth >= n) return;
  introselect(a, 0, nth, n, (31 - Math.clz32(n)) * 2, less);
}

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

function introselect<T>(a: T[], first: number, nth: number, last: number, depthLimit: number, less: (x: T, y: T) => boolean): void {
  while (last - first > 3) {
    if (depthLimit === 0) {
      heapSelect(a, first, nth + 1, last, less);
      // the nth element to its place
      swap(a, first, nth);
      return;
    }
    --depthLimit;
    const cut = unguardedPartitionPivot(a, first, last, less);
    if (cut <= nth) first = cut;
    else last = cut;
  }
  insertionSort(a, first, last, less);
}

function unguardedPartitionPivot<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): number {
  const mid = first + Math.floor((last - first) / 2);
  moveMedianToFirst(a, first, first + 1, mid, last - 1, less);
  return unguardedPartition(a, first + 1, last, first, less);
}

function moveMedianToFirst<T>(a: T[], result: number, x: number, y: number, z: number, less: (p: T, q: T) => boolean): void {
  if (less(a[x]!, a[y]!)) {
    if (less(a[y]!, a[z]!)) swap(a, result, y);
    else if (less(a[x]!, a[z]!)) swap(a, result, z);
    else swap(a, result, x);
  } else if (less(a[x]!, a[z]!)) swap(a, result, x);
  else if (less(a[y]!, a[z]!)) swap(a, result, z);
  else swap(a, result, y);
}

function unguardedPartition<T>(a: T[], first: number, last: number, pivot: number, less: (x: T, y: T) => boolean): number {
  for (;;) {
    while (less(a[first]!, a[pivot]!)) ++first;
    --last;
    while (less(a[pivot]!, a[last]!)) --last;
    if (!(first < last)) return first;
    swap(a, first, last);
    ++first;
  }
}

function insertionSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  if (first === last) return;
  for (let i = first + 1; i !== last; ++i) {
    const value = a[i]!;
    if (less(value, a[first]!)) {
      for (let j = i; j > first; --j) a[j] = a[j - 1]!;
      a[first] = value;
    } else {
      // __unguarded_linear_insert
      let hole = i;
      let next = i - 1;
      while (less(value, a[next]!)) {
        a[hole] = a[next]!;
        hole = next;
        --next;
      }
      a[hole] = value;
    }
  }
}

function heapSelect<T>(a: T[], first: number, middle: number, last: number, less: (x: T, y: T) => boolean): void {
  makeHeap(a, first, middle, less);
  for (let i = middle; i < last; ++i) if (less(a[i]!, a[first]!)) popHeap(a, first, middle, i, less);
}

function makeHeap<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  const len = last - first;
  if (len < 2) return;
  for (let parent = Math.floor((len - 2) / 2); ; parent--) {
    adjustHeap(a, first, parent, len, a[first + parent]!, less);
    if (parent === 0) return;
  }
}

function popHeap<T>(a: T[], first: number, last: number, result: number, less: (x: T, y: T) => boolean): void {
  const value = a[result]!;
  a[result] = a[first]!;
  adjustHeap(a, first, 0, last - first, value, less);
}

function adjustHeap<T>(a: T[], first: number, holeIndex: number, len: number, value: T, less: (x: T, y: T) => boolean): void {
  const topIndex = holeIndex;
  let secondChild = holeIndex;
  while (secondChild < Math.floor((len - 1) / 2)) {
    secondChild = 2 * (secondChild + 1);
    if (less(a[first + secondChild]!, a[first + secondChild - 1]!)) secondChild--;
    a[first + holeIndex] = a[first + secondChild]!;
    holeIndex = secondChild;
  }
  if ((len & 1) === 0 && secondChild === Math.floor((len - 2) / 2)) {
    secondChild = 2 * (secondChild + 1);
    a[first + holeIndex] = a[first + secondChild - 1]!;
    holeIndex = secondChild - 1;
  }
  // __push_heap
  let parent = Math.trunc((holeIndex - 1) / 2);
  while (holeIndex > topIndex && less(a[first + parent]!, value)) {
    a[first + holeIndex] = a[first + parent]!;
    holeIndex = parent;
    parent = Math.trunc((holeIndex - 1) / 2);
  }
  a[first + holeIndex] = value;
}
