package cli

import (
	"fmt"

	"github.com/hanzoai/driftboard/config"
	"github.com/hanzoai/driftboard/model"
)

// configChecks validates the config file's queries with the board's own
// query language.
func configChecks() config.Checks {
	return config.Checks{
		Query: func(q string) error {
			_, err := model.ParseQuery(q)
			return err
		},
		KeyAction: keyActionCheck,
	}
}

// keyActionCheck accepts the board's action names.
func keyActionCheck(action string) error {
	for _, a := range keyActions {
		if a == action {
			return nil
		}
	}
	return fmt.Errorf("unknown action %q (actions: %v)", action, keyActions)
}

// keyActions are the board's bindable actions, named after its key map.
var keyActions = []string{
	"up", "down", "pageUp", "pageDown", "home", "end",
	"filter", "back", "sort", "nextProblem", "prevProblem", "onlyDrifted", "env", "saved", "actions",
	"detail", "restart", "login", "help", "quit",
}
