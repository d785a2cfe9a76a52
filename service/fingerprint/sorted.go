package fingerprint

import "cmp"

// sharedSorted counts the values two ascending lists without repeats have
// in common, in one pass over both: word sets and shingle sets are kept
// sorted so that comparing them costs no map.
func sharedSorted[T cmp.Ordered](a, b []T) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}
