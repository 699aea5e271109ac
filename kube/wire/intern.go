package wire

import (
	"strings"
	"unique"

	"github.com/hanzoai/driftboard/model"
)

// intern returns the one shared copy of a string that repeats across the
// fleet (a namespace, a condition's type, status and reason): each decoded
// object brings its own copy, and 10,000 workloads keep 10,000 of each.
func intern(s string) string { return unique.Make(s).Value() }

// keptCondition is a condition as an entry keeps it: its type, status and
// reason shared, and its message too unless it names the object (then it is
// that object's own, and sharing would only add a table entry).
func keptCondition(typ, status, reason, msg, object string) model.Condition {
	msg = Truncate(msg, MaxMessage)
	if !strings.Contains(msg, object) {
		msg = intern(msg)
	}
	return model.Condition{Type: intern(typ), Status: intern(status), Reason: intern(reason), Message: msg}
}
