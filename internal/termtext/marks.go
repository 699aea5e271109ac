package termtext

import "unicode"

// MaxMarks is how many marks may stack on one character (one grapheme, one
// or two cells): accents, vowel signs and a skin tone fit; beyond it marks
// are escaped, so a value's length shows in its width instead of piling up
// on one cell (200,000 of them made one 400 KB cell).
const MaxMarks = 8

// noBase is the count where nothing precedes to stack on: the first mark
// is escaped (it would stack on the cell before the value).
const noBase = MaxMarks

// stacks reports whether r joins the character before it in the same cell:
// combining and spacing marks, grapheme extenders, the medial and final
// conjoining jamo of Hangul and the emoji skin tones.
func stacks(r rune) bool {
	switch {
	case r < 0x300:
		return false
	case r >= 0x1160 && r <= 0x11FF, r >= 0xD7B0 && r <= 0xD7FF, r >= 0x1F3FB && r <= 0x1F3FF:
		return true
	case r >= 0x3400 && r <= 0x9FFF, r >= 0xAC00 && r <= 0xD7A3: // CJK, Hangul syllables: none (a test checks)
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Other_Grapheme_Extend)
}

// filler reports whether r shows as nothing or as a blank that is not a
// space: the default-ignorable characters that are not format characters
// (Hangul fillers, the grapheme joiner, Khmer inherent vowels, reserved).
func filler(r rune) bool {
	return r >= 0x34F && unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}
