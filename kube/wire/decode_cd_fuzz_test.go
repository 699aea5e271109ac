package wire

import (
	"encoding/json"
	"testing"

	"github.com/hanzoai/driftboard/internal/termtext"
)

// An Application is whatever its writers made it: any JSON decodes without a
// panic, free text comes out safe to print, and the caps hold.
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
		for _, s := range []string{a.Operation.Message, a.Operation.Phase, a.SyncStatus, a.Revision, a.Path, a.Chart, a.Image.Tag, a.Image.Repository} {
			if !termtext.IsClean(s) {
				t.Errorf("unsafe text kept: %q", s)
			}
		}
		if len(a.Resources) > maxCDResources || len(a.Operation.Message) > maxCDMessageLen+len("…") {
			t.Errorf("caps broken: %d resources, message %d bytes", len(a.Resources), len(a.Operation.Message))
		}
	})
}
