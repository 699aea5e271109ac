package logs

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/ui/keymap"
)

type reader struct{ pods []model.LogPod }

func (r reader) LogPods(context.Context, model.Key) ([]model.LogPod, error) { return r.pods, nil }

func (r reader) OpenLog(ctx context.Context, _ model.Key, req model.LogRequest) (*logbuf.Feed, error) {
	return logbuf.NewFeed(req.MaxLines), nil
}

func pod(name string, containers ...string) model.LogPod {
	return model.LogPod{Name: name, Containers: containers, AppContainer: containers[0], Ready: true}
}

// TestActionsAskTheBoard: several containers ask the board for a pick (the
// cursor on the default one); one opens its stream; q stops the stream and
// asks the board to go back; ? asks for help.
func TestActionsAskTheBoard(t *testing.T) {
	k := model.Key{Namespace: "hanzo", Name: "web"}
	l, cmd := Open(context.Background(), reader{pods: []model.LogPod{pod("web-1", "web", "sidecar")}}, k, 10, keymap.New(), View{})
	l, cmd, act := l.Update(cmd())
	if p, ok := act.(Pick); !ok || cmd != nil || len(p.Choices) != 2 || p.Pod != "web-1" || p.Container != "web" {
		t.Fatalf("two containers: action %#v, cmd %v; want a pick of 2 on web-1/web and no stream", act, cmd != nil)
	}

	l, cmd = Open(context.Background(), reader{pods: []model.LogPod{pod("web-1", "web")}}, k, 10, keymap.New(), l)
	l, cmd, act = l.Update(cmd())
	if act != nil || cmd == nil {
		t.Fatalf("one container: action %#v, stream %v; want the stream opened", act, cmd != nil)
	}
	l, _, _ = l.Update(cmd())
	if !l.Streaming() {
		t.Fatal("the opened stream is not read")
	}
	stream := l.cancel
	if l, _, act = l.Update(tea.KeyPressMsg{Code: 'q', Text: "q"}); act != (Back{}) || l.Streaming() || l.cancel != nil || stream == nil {
		t.Errorf("q: action %#v, streaming %v; want back with the stream stopped", act, l.Streaming())
	}
	if _, _, act = l.Update(tea.KeyPressMsg{Code: '?', Text: "?"}); act != (Help{}) {
		t.Errorf("?: action %#v, want help", act)
	}
}
