package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/ui"
)

// The config file's `keys:` reaches the board, validated against the
// board's own list of actions.
func TestConfigKeysReachTheBoard(t *testing.T) {
	yaml := "keys:\n  restart: [R]\n  nextProblem: [\"]\", n]\n"
	cfg, err := config.Parse("c.yaml", []byte(yaml), configChecks())
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	opts := boardOptions(config.Resolve(*cfg, config.Overrides{}, func(string) string { return "" }), false)
	want := map[string][]string{"restart": {"R"}, "nextProblem": {"]", "n"}}
	if diff := cmp.Diff(want, opts.Keys); diff != "" {
		t.Errorf("ui.Options.Keys (-want +got):\n%s", diff)
	}
}

func TestKeyActionCheckUsesTheBoardsActions(t *testing.T) {
	t.Parallel()
	for _, a := range ui.KeyActions() {
		if err := keyActionCheck(a); err != nil {
			t.Errorf("board action %q refused: %v", a, err)
		}
	}
	err := keyActionCheck("launch")
	if err == nil || !strings.Contains(err.Error(), `unknown action "launch"`) || !strings.Contains(err.Error(), "nextProblem") {
		t.Errorf("keyActionCheck(launch) = %v", err)
	}
}
