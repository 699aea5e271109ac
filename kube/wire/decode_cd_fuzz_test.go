package wire

import (
	"encoding/json"
	"testing"
)

// An Application is whatever its writers made it: any JSON decodes without a
// panic, free text comes out exactly as written (escaping is the printers'
// rule), and the caps hold.
func FuzzDecodeCDApplication(f *testing.F) {
	f.Add(`{"metadata":{"name":"a","namespace":"hanzo-cd"},"spec":{"source":{"chart":"c","helm":{"values":"image:\n  tag: v1\n"}}},` +
		`"status":{"sync":{"status":"OutOfSync","revision":"abc"},"operationState":{"phase":"Failed","message":"x\u001b[2J"},` +
		`"resources":[{"group":"hanzo.ai","kind":"App","namespace":"hanzo","name":"iam","status":"Synced"}]}}`)
	f.Add(`{"spec":{"sources":[{"helm":{"parameters":[{"name":"image.tag","value":7}]}}]},"status":{"resources":"no"}}`)
	f.Add(`{"spec":{"source":{"helm":{"valuesObject":{"image":["x"]},"values":12}}},"status":{"health":[],"sync":null}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		var obj map[string]any
		if json.Unmarshal([]byte(doc), &obj) != nil {
			return
		}
		a := DecodeCDApplication("c", "apps.hanzo.ai", obj)
		st, _ := obj["status"].(map[string]any)
		sync, _ := st["sync"].(map[string]any)
		op, _ := st["operationState"].(map[string]any)
		for _, f := range []struct {
			got string
			in  any
		}{{a.SyncStatus, sync["status"]}, {a.Revision, sync["revision"]}, {a.Operation.Phase, op["phase"]}} {
			if in, ok := f.in.(string); ok && len(in) <= maxField && f.got != in {
				t.Errorf("decoded %q from %q", f.got, in)
			}
		}
		if msg, ok := op["message"].(string); ok && len(msg) <= maxCDMessageLen && a.Operation.Message != msg {
			t.Errorf("message %q decoded as %q", msg, a.Operation.Message)
		}
		if len(a.Resources) > maxCDResources || len(a.Operation.Message) > maxCDMessageLen+len("…") {
			t.Errorf("caps broken: %d resources, message %d bytes", len(a.Resources), len(a.Operation.Message))
		}
	})
}
