package cli

import (
	"context"
	"testing"

	"github.com/hanzoai/driftboard/internal/demo"
	"github.com/hanzoai/driftboard/ui"
)

// The demo's L switches between its users, and the board is told so (its
// help and status then say "switch the demo's user", not "log in").
func TestDemoIdentitySwitchesUsers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := demo.Start(ctx, demo.Options{Seed: 1, Speed: 1, Apps: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Stop()
	id := demoIdentity{d}
	before := id.Current()
	if !before.SwitchesUser {
		t.Fatal("the demo's identity does not say its login switches users")
	}
	if err := id.Login(ctx, func(ui.LoginPrompt) {}); err != nil {
		t.Fatal(err)
	}
	if after := id.Current(); after.Principal.User == before.Principal.User {
		t.Errorf("L left the demo's user %s", after.Principal.User)
	}
}
