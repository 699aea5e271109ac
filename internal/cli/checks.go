package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/ui"
)

// configChecks validates the config file's queries with the board's own
// query language.
func configChecks() config.Checks {
	return config.Checks{
		Query: func(q string) error {
			_, err := query.Parse(q)
			return err
		},
		KeyAction: keyActionCheck,
		CDKind: func(k string) error {
			_, err := cd.ParseKind(k)
			return err
		},
	}
}

// keyActionCheck accepts the board's action names: ui's key map is the one
// list, so the config file and the board cannot disagree.
func keyActionCheck(action string) error {
	actions := ui.KeyActions()
	if slices.Contains(actions, action) {
		return nil
	}
	return fmt.Errorf("unknown action %q (actions: %s)", action, strings.Join(actions, ", "))
}
