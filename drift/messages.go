package drift

import "sync"

// messages shares one copy of each flag message among the rows that say it
// (a board keeps thousands of rows, most saying what others say). A plain
// bounded table, not unique.Make: under churn nearly every changed row says
// something new (its new tag), and making a unique handle (a weak pointer
// and a cleanup each) cost a third of rebuilding the row. When full it
// starts over: rows keep their copies, later rows share new ones.
var messages = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// maxMessages bounds the table (~70 bytes a message: a few hundred KB).
const maxMessages = 4096

func shared(msg string) string {
	messages.Lock()
	defer messages.Unlock()
	if s, ok := messages.m[msg]; ok {
		return s
	}
	if len(messages.m) >= maxMessages {
		clear(messages.m)
	}
	messages.m[msg] = msg
	return msg
}
