package kube

import (
	"sync"

	"github.com/hanzoai/driftboard/drift"
)

// messageTable shares one copy of each drift message among a fleet's rows:
// a board keeps thousands of rows, most saying what others say. A plain
// bounded table, not unique.Make: under churn nearly every changed row says
// something new (its new tag), and making a unique handle (a weak pointer
// and a cleanup each) cost a third of rebuilding the row. When full it
// starts over: rows keep their copies, later rows share new ones.
type messageTable struct {
	mu sync.Mutex
	m  map[string]string
}

// maxMessages bounds the table (~70 bytes a message: a few hundred KB).
const maxMessages = 4096

// share points each flag's message at the table's copy, before the row is
// published (the flags are the row's own until then).
func (t *messageTable) share(flags []drift.DriftFlag) {
	if len(flags) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[string]string)
	}
	if len(t.m)+len(flags) > maxMessages {
		clear(t.m) // before the row, so two rows that say the same share it
	}
	for i, f := range flags {
		if s, ok := t.m[f.Message]; ok {
			flags[i].Message = s
		} else {
			t.m[f.Message] = f.Message
		}
	}
}
