package ui

import (
	"strings"
	"testing"
)

// The restart dialog of a legacy workload (no controller reference to its
// App) says so, and what the restart touches; an owned one does not.
func TestConfirmWarnsOfALegacyWorkload(t *testing.T) {
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 100, 30)
	src.upsert(app{ns: "hanzo-testnet", name: "relay", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0",
		ready: 2, updated: 2, assets: 1, legacy: true}.build())
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "relay")
	press(m, "r")
	got := plainView(m)
	checkGolden(t, "confirm_legacy_w100", got)
	for _, want := range []string{"Legacy workload: Deployment hanzo-testnet/relay has no controller", "operator does not own it", "touches only this"} {
		if !strings.Contains(strings.Join(strings.Fields(got), " "), want) {
			t.Errorf("the dialog lacks %q:\n%s", want, got)
		}
	}
	press(m, "esc")
	selectApp(t, m, "queue") // same namespace, owned by its App
	press(m, "r")
	if v := plainView(m); strings.Contains(v, "Legacy") {
		t.Errorf("an owned workload's dialog warns of a legacy one:\n%s", v)
	}
}

// The set restart names the legacy workloads among the apps it restarts.
func TestSetRestartNamesLegacyWorkloads(t *testing.T) {
	legacy := app{ns: "hanzo", name: "relay", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1, legacy: true}
	m := setModel(t, &setRestarter{}, 2, legacy.build())
	keyDrive(m, "*", "R")
	v := strings.Join(strings.Fields(plainView(m)), " ")
	if !strings.Contains(v, "Legacy workloads the Hanzo operator does not own") || !strings.Contains(v, "hanzo/relay. The restart touches only their workloads") {
		t.Errorf("the set dialog should name the legacy workload:\n%s", plainView(m))
	}
	owned := setModel(t, &setRestarter{}, 2)
	keyDrive(owned, "*", "R")
	if v := plainView(owned); strings.Contains(v, "Legacy") {
		t.Errorf("a set without legacy workloads warns of them:\n%s", v)
	}
}
