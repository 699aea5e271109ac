package wire

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// Where the fast decoder must read exactly as encoding/json and the
// unstructured converter do: strings, numbers, managedFields' times.

// fastSafe: valid UTF-8 and only escapes fastjson unescapes as
// encoding/json does (no surrogates, no unknown escapes).
func fastSafe(data []byte) bool {
	i := bytes.IndexByte(data, '\\')
	if i >= 0 {
		for ; i < len(data); i++ {
			if data[i] != '\\' {
				continue
			}
			if i+1 >= len(data) {
				return false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 >= len(data) {
					return false
				}
				x, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16)
				if err != nil || (x >= 0xd800 && x < 0xe000) {
					return false
				}
				i += 5
			default:
				return false
			}
		}
	}
	return utf8.Valid(data)
}

// jsonNumber is sigs.k8s.io/json's number conversion, for numbers JSON allows.
func jsonNumber(s string) (any, error) {
	if !validNumber(s) {
		return nil, errSlowPath
	}
	if !strings.Contains(s, ".") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, errSlowPath
	}
	return f, nil
}

// validNumber is JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// tagSetAtOf is tagSetAt(u.GetManagedFields()) read in place: any entry the
// converter would reject makes GetManagedFields nil, and the time zero.
func tagSetAtOf(mf *fastjson.Value) time.Time {
	var at time.Time
	if mf == nil || mf.Type() != fastjson.TypeArray {
		return at
	}
	entries, _ := mf.Array()
	for _, e := range entries {
		o, err := e.Object()
		if err != nil {
			return time.Time{}
		}
		// Duplicate keys: the last wins, as in the map the converter reads.
		var strs [5]*fastjson.Value // manager, operation, apiVersion, fieldsType, subresource
		var timeV, fields *fastjson.Value
		o.Visit(func(k []byte, v *fastjson.Value) {
			switch string(k) {
			case "manager":
				strs[0] = v
			case "operation":
				strs[1] = v
			case "apiVersion":
				strs[2] = v
			case "fieldsType":
				strs[3] = v
			case "subresource":
				strs[4] = v
			case "time":
				timeV = v
			case "fieldsV1":
				fields = v
			}
		})
		for _, v := range strs {
			if v != nil && v.Type() != fastjson.TypeString && v.Type() != fastjson.TypeNull {
				return time.Time{}
			}
		}
		subresource := ""
		if strs[4] != nil {
			subresource = string(strs[4].GetStringBytes())
		}
		var when time.Time
		switch tv := timeV; {
		case tv == nil || tv.Type() == fastjson.TypeNull:
			continue // no time: the entry is skipped, but later ones may still fail
		case tv.Type() == fastjson.TypeString:
			pt, err := time.Parse(time.RFC3339, string(tv.GetStringBytes()))
			if err != nil {
				return time.Time{}
			}
			when = pt.Local()
		default:
			return time.Time{}
		}
		if fields == nil || fields.Type() == fastjson.TypeNull || subresource != "" {
			continue
		}
		if ownsTag(fields) && when.After(at) {
			at = when
		}
	}
	return at
}

// ownsTag: fieldsV1 has f:spec.f:image.f:tag (the last of duplicate keys).
func ownsTag(fields *fastjson.Value) bool {
	child := func(v *fastjson.Value, key string) *fastjson.Value {
		o, err := v.Object()
		if err != nil {
			return nil
		}
		var found *fastjson.Value
		o.Visit(func(k []byte, x *fastjson.Value) {
			if string(k) == key {
				found = x
			}
		})
		return found
	}
	spec := child(fields, "f:spec")
	if spec == nil || spec.Type() != fastjson.TypeObject {
		return false
	}
	image := child(spec, "f:image")
	if image == nil || image.Type() != fastjson.TypeObject {
		return false
	}
	return child(image, "f:tag") != nil
}
