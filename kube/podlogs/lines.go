package podlogs

import (
	"bufio"
	"errors"
	"io"
)

// lineCut ends a line cut at maxLogLine.
const lineCut = " …(line cut)"

// logLines splits a pods/log stream into lines of at most maxLogLine bytes
// (without the newline). A longer line is handed on, marked cut, as soon as
// it reaches the bound and the rest of it is read and dropped, so neither
// one endless line nor a pod that never prints a newline holds more memory
// than the bound, in every path (logs, logs -f, the board's view).
type logLines struct {
	br       *bufio.Reader
	line     []byte
	skipping bool  // the current line was cut and handed on: drop to its newline
	err      error // the stream's end, returned once the last line is out
}

func newLogLines(r io.Reader) *logLines {
	return &logLines{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line and whether it was cut, or the stream's end
// (io.EOF when it ended normally). A last line without newline is a line.
func (l *logLines) next() (line string, cut bool, err error) {
	for l.err == nil {
		chunk, err := l.br.ReadSlice('\n')
		ended := err == nil
		if ended {
			chunk = chunk[:len(chunk)-1]
		} else if !errors.Is(err, bufio.ErrBufferFull) {
			l.err = err
		}
		switch {
		case l.skipping:
			l.skipping = !ended
		case len(chunk) > maxLogLine-len(l.line):
			l.line = append(l.line, chunk[:maxLogLine-len(l.line)]...)
			out := string(l.line)
			l.line, l.skipping = l.line[:0], !ended && l.err == nil
			return out, true, nil
		default:
			l.line = append(l.line, chunk...)
			if ended || l.err != nil && len(l.line) > 0 {
				out := string(l.line)
				l.line = l.line[:0]
				return out, false, nil
			}
		}
	}
	return "", false, l.err
}

// trimCR drops the carriage return of a CRLF line end.
func trimCR(s string) string {
	if len(s) > 0 && s[len(s)-1] == '\r' {
		return s[:len(s)-1]
	}
	return s
}
