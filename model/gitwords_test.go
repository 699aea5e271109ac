package model

import "testing"

// Every git state gets its own cell; an unknown one always says why, and
// no state not observed reads as "-" or "none".
func TestGitCell(t *testing.T) {
	t.Parallel()
	app := &CDApplication{Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "universe-crs",
		Revision: "1111111aaaaaaabbbbbbbcccccccdddddddeeeee",
		Resources: []CDResource{{Group: "hanzo.ai", Kind: "App", Namespace: "hanzo", Name: "iam", Status: "OutOfSync"},
			{Group: "hanzo.ai", Kind: "App", Namespace: "hanzo", Name: "kv"}}}
	cd := NewCDView("", []*CDApplication{app})
	chartApp := &CDApplication{Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "chat"}
	for _, tc := range []struct {
		name     string
		g        GitSync
		cell, at string
	}{
		{"out of sync", GitSyncOf(cd, "hanzo.ai", "App", "hanzo", "iam"), "out-of-sync", "out-of-sync@1111111"},
		{"synced without revision", GitSync{State: GitSynced}, "synced", "synced"},
		{"no status for it", GitSyncOf(cd, "hanzo.ai", "App", "hanzo", "kv"), "unknown(no-status)", "unknown(no-status)"},
		{"no status for a chart", ChartGitSync(cd, chartApp, Key{Namespace: "chat", Name: "chat"}), "unknown(no-status)", "unknown(no-status)"},
		{"no Application lists it", GitSyncOf(cd, "hanzo.ai", "App", "hanzo", "lone"), "not-managed", "not-managed"},
		{"no kind served", GitSyncOf(NewCDView(GitWhyNoKind, nil), "hanzo.ai", "App", "hanzo", "iam"), "unknown(no-cd)", "unknown(no-cd)"},
		{"forbidden", GitSyncOf(NewCDView(GitWhyForbidden, nil), "hanzo.ai", "App", "hanzo", "iam"), "unknown(forbidden)", "unknown(forbidden)"},
		{"not synced", GitSync{State: GitUnknown, Why: GitWhyNotSynced}, "unknown(not-synced)", "unknown(not-synced)"},
		{"undiscovered", GitSync{State: GitUnknown, Why: GitWhyUndiscovered}, "unknown(undiscovered)", "unknown(undiscovered)"},
		{"not kept", GitSync{State: GitUnknown, Why: GitWhyNotCounted}, "unknown(not-kept)", "unknown(not-kept)"},
		{"another reason", GitSync{State: GitUnknown, Why: "something new"}, "unknown(see-get)", "unknown(see-get)"},
		{"never looked up", GitSync{}, "unknown(not-looked-up)", "unknown(not-looked-up)"},
	} {
		if got := GitCell(tc.g); got != tc.cell {
			t.Errorf("%s: GitCell(%+v) = %q, want %q", tc.name, tc.g, got, tc.cell)
		}
		if got := GitCellAt(tc.g); got != tc.at {
			t.Errorf("%s: GitCellAt(%+v) = %q, want %q", tc.name, tc.g, got, tc.at)
		}
	}
}
