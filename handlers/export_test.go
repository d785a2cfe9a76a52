package handlers

// FindLoneSurrogate exposes the surrogate scanner to the handlers_test
// package: the offset of the first lone surrogate escape and its code unit,
// or ok false when there is none.
func FindLoneSurrogate(data []byte) (offset int, unit uint16, ok bool) {
	if e := findLoneSurrogate(data); e != nil {
		return e.Offset, e.Unit, true
	}
	return 0, 0, false
}
