package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/runtime"
)

// Finding where JSON values end without parsing them: the watch stream's
// events and a LIST page's items are each handed whole to the parser. The
// parser validates; these only track strings and nesting.

var errBadJSON = errors.New("malformed JSON")

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// stringEnd returns the index after the string that starts at data[i] ('"').
func stringEnd(data []byte, i int) (int, error) {
	for j := i + 1; j < len(data); {
		k := bytes.IndexAny(data[j:], `"\`)
		if k < 0 {
			break
		}
		j += k
		if data[j] == '\\' {
			j += 2
			continue
		}
		return j + 1, nil
	}
	return 0, errBadJSON
}

// valueEnd returns the index after the value that starts at data[i].
func valueEnd(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errBadJSON
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := stringEnd(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errBadJSON
	}
	j := i
	for j < len(data) && !isSpace(data[j]) && data[j] != ',' && data[j] != '}' && data[j] != ']' {
		j++
	}
	if j == i {
		return 0, errBadJSON
	}
	return j, nil
}

// walkObject splits a JSON object into its members' raw values (the last
// of duplicate keys wins).
func walkObject(data []byte) (map[string][]byte, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, errBadJSON
	}
	out := map[string][]byte{}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return out, checkTail(data, i+1)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, errBadJSON
		}
		end, err := stringEnd(data, i)
		if err != nil {
			return nil, err
		}
		var key string
		if err := json.Unmarshal(data[i:end], &key); err != nil {
			return nil, err
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, errBadJSON
		}
		i = skipSpace(data, i+1)
		if end, err = valueEnd(data, i); err != nil {
			return nil, err
		}
		out[key] = data[i:end]
		i = skipSpace(data, end)
		switch {
		case i < len(data) && data[i] == ',':
			i = skipSpace(data, i+1)
		case i < len(data) && data[i] == '}':
			return out, checkTail(data, i+1)
		default:
			return nil, errBadJSON
		}
	}
}

func checkTail(data []byte, i int) error {
	if skipSpace(data, i) != len(data) {
		return errBadJSON
	}
	return nil
}

// walkArray splits a JSON array (or null, or nothing) into its elements.
func walkArray(data []byte) ([][]byte, error) {
	i := skipSpace(data, 0)
	if i == len(data) || string(data[i:]) == "null" {
		return nil, nil
	}
	if data[i] != '[' {
		return nil, errBadJSON
	}
	var out [][]byte
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return out, checkTail(data, i+1)
	}
	for {
		end, err := valueEnd(data, i)
		if err != nil {
			return nil, err
		}
		out = append(out, data[i:end])
		i = skipSpace(data, end)
		switch {
		case i < len(data) && data[i] == ',':
			i = skipSpace(data, i+1)
		case i < len(data) && data[i] == ']':
			return out, checkTail(data, i+1)
		default:
			return nil, errBadJSON
		}
	}
}

// jsonFramer frames a watch stream into its events, one per Read (the
// streaming decoder grows its buffer on io.ErrShortBuffer). Only the
// current chunk is held, however big an event.
type jsonFramer struct{}

func (jsonFramer) NewFrameReader(r io.ReadCloser) io.ReadCloser {
	return &frameReader{body: r, br: bufio.NewReaderSize(r, 64<<10)}
}

func (jsonFramer) NewFrameWriter(w io.Writer) io.Writer { return w }

var _ runtime.Framer = jsonFramer{}

type frameReader struct {
	body    io.ReadCloser
	br      *bufio.Reader
	inFrame bool
	depth   int
	inStr   bool
	escaped bool
}

func (f *frameReader) Close() error { return f.body.Close() }

func (f *frameReader) Read(p []byte) (int, error) {
	n := 0
	if !f.inFrame {
		for {
			c, err := f.br.ReadByte()
			if err != nil {
				return 0, err // io.EOF between events ends the watch
			}
			if isSpace(c) {
				continue
			}
			if c != '{' {
				return 0, fmt.Errorf("watch stream: '%s' where an event should start", []byte{c}) // as it is: printers escape it
			}
			f.inFrame, f.depth, f.inStr, f.escaped = true, 1, false, false
			break
		}
		if len(p) == 0 {
			return 0, io.ErrShortBuffer
		}
		p[0] = '{'
		n = 1
	}
	for n < len(p) {
		if f.br.Buffered() == 0 {
			if _, err := f.br.Peek(1); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return n, err
			}
		}
		chunk, _ := f.br.Peek(min(f.br.Buffered(), len(p)-n))
		end := f.scan(chunk)
		copy(p[n:], chunk[:end])
		n += end
		f.br.Discard(end)
		if !f.inFrame {
			return n, nil
		}
	}
	return n, io.ErrShortBuffer
}

// scan follows the nesting through chunk; it returns how much of it
// belongs to the current event (all of it, unless the event ends in it).
func (f *frameReader) scan(chunk []byte) int {
	for i := 0; i < len(chunk); i++ {
		if f.inStr {
			if f.escaped {
				f.escaped = false
				continue
			}
			// Jump to the string's next quote or backslash.
			q := bytes.IndexByte(chunk[i:], '"')
			if q < 0 {
				q = len(chunk) - i
			}
			if b := bytes.IndexByte(chunk[i:i+q], '\\'); b >= 0 {
				i += b
				f.escaped = true
				continue
			}
			if i += q; i == len(chunk) {
				return len(chunk)
			}
			f.inStr = false
			continue
		}
		switch chunk[i] {
		case '"':
			f.inStr = true
		case '{', '[':
			f.depth++
		case '}', ']':
			if f.depth--; f.depth == 0 {
				f.inFrame = false
				return i + 1
			}
		}
	}
	return len(chunk)
}
