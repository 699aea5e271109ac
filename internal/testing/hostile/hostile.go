// Package hostile is test material: text that terminals act on, one of
// each family, and a filler that puts it into every string of a value.
package hostile

import (
	"reflect"
	"strings"
	"time"
)

// Payloads are one of each family a terminal acts on.
var Payloads = []string{
	"v1\x1b[2J\x1b[H",                      // CSI: clear, home
	"x\x1b]52;c;cm0gLXJmIH4=\x07",          // OSC 52: set the clipboard
	"\x1b]8;;https://evil.example\x1b\\ok", // OSC 8 link
	"\x1bPq#0;2;0;0;0#0~~\x1b\\",           // DCS sixel
	"\x1b_Gf=100;AAAA\x1b\\",               // APC kitty image
	"\x1b^pm\x1b\\\x1bXsos\x1b\\",          // PM, SOS
	"\x1b[8mhidden\x1b[0m",                 // SGR conceal
	"real\rfake",                           // CR over-print
	"a\nb\tc",                              // line and cell break
	"\u009b2J\x9b2J\x7f",                   // C1 (UTF-8 and raw), DEL
	"evil\u202egnp.exe\u2066\u200b\ufeff",  // bidi and invisible
	"e" + strings.Repeat("\u0301", 40) + "\u3164\u115f\u1160\u034f", // stacked marks, fillers
}

// fill sets every string in v (fields, slice elements, map keys and
// values, named string types) to s, adding one element to empty slices and
// maps, so no field a renderer reads is left out.
func fill(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), s)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), s)
		}
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.String {
			m := reflect.MakeMap(v.Type())
			m.SetMapIndex(reflect.ValueOf(s).Convert(v.Type().Key()), reflect.ValueOf(s).Convert(v.Type().Elem()))
			v.Set(m)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			fill(v.Elem(), s)
		}
	}
}

// Fill sets every string reachable from ptr (a pointer) to s.
func Fill(ptr any, s string) { fill(reflect.ValueOf(ptr).Elem(), s) }
