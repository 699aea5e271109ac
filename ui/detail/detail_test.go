package detail

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/keymap"
)

type reader struct{ watches []context.Context }

func (r *reader) RunningDigests(context.Context, model.Key) (model.PodDigests, error) {
	return model.PodDigests{Pods: 1, Digests: []string{"sha256:aa"}}, nil
}

func (r *reader) WatchEvents(ctx context.Context, _ model.Key) (<-chan []model.Event, error) {
	r.watches = append(r.watches, ctx)
	return make(chan []model.Event), nil
}

func row(ready int32) *model.AppView {
	r := &model.AppView{App: "web", Namespace: "hanzo", Cluster: "prod"}
	r.Workload.Found, r.Workload.Ready, r.Workload.Desired = true, ready, 2
	return r
}

func press(k string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: rune(k[0]), Text: k} }

// TestKeysAskTheBoard: the keys that act on the app are typed actions; q
// also stops the Events watch.
func TestKeysAskTheBoard(t *testing.T) {
	rd := &reader{}
	d, cmd := Open(context.Background(), rd, row(1), keymap.New(), View{})
	for _, c := range tea.Batch(cmd)().(tea.BatchMsg) {
		if msg, ok := c().(EventsStartedMsg); ok {
			d, _, _ = d.Update(msg)
		}
	}
	for k, want := range map[string]Action{"r": Restart, "y": YAML, "l": Logs, "?": Help, "j": None} {
		if _, _, act := d.Update(press(k)); act != want {
			t.Errorf("%q: action %d, want %d", k, act, want)
		}
	}
	if len(rd.watches) != 1 || rd.watches[0].Err() != nil {
		t.Fatalf("%d watches, the first ended %v: want one, live", len(rd.watches), rd.watches[0].Err())
	}
	if _, _, act := d.Update(press("q")); act != Back || rd.watches[0].Err() == nil {
		t.Errorf("q: action %d, watch ended %v; want back with the watch stopped", act, rd.watches[0].Err())
	}
}

// TestDigestsFollowThePods: pods that change during a read ask for one more
// read once it answers; an answer for an earlier read is stale.
func TestDigestsFollowThePods(t *testing.T) {
	d, _ := Open(context.Background(), &reader{}, row(1), keymap.New(), View{})
	first := d.ReadDigests(row(1))().(DigestsMsg)
	if cmd := d.Follow(row(2)); cmd != nil {
		t.Fatal("a read while one is under way: want it deferred")
	}
	if _, _, act := d.Update(DigestsMsg{Key: first.Key, Seq: first.Seq - 1}); act != None {
		t.Errorf("a stale answer: action %d", act)
	}
	if d, _, act := d.Update(first); act != Reread || !d.DigestsRead() {
		t.Errorf("the answer after the pods changed: action %d, read %v; want Reread", act, d.DigestsRead())
	}
}
