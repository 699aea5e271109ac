package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// Only a found release has an asset count; unread or missing releases say
// nothing about assets rather than "assets": 0.
func TestReleaseJSONAssetsOnlyWhenFound(t *testing.T) {
	for _, c := range []struct {
		rel  Release
		want string // "" = no assets key
	}{
		{Release{State: ReleaseFound, Assets: 0}, `"assets":0`},
		{Release{State: ReleaseFound, Assets: 5}, `"assets":5`},
		{Release{State: ReleaseOff}, ""},
		{Release{State: ReleasePending}, ""},
		{Release{State: ReleaseRateLimited, Detail: "until 14:05"}, ""},
		{Release{State: ReleaseError}, ""},
		{Release{State: ReleaseNotLooked}, ""},
		{Release{State: ReleaseNone}, ""},
	} {
		b, err := json.Marshal(c.rel)
		if err != nil {
			t.Fatal(err)
		}
		got := string(b)
		switch {
		case c.want == "" && strings.Contains(got, `"assets"`):
			t.Errorf("%s: %s has an asset count", c.rel.State, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%s: %s lacks %s", c.rel.State, got, c.want)
		}
		if !strings.Contains(got, `"state":"`+string(c.rel.State)+`"`) {
			t.Errorf("%s: state lost: %s", c.rel.State, got)
		}
		var back Release
		if err := json.Unmarshal(b, &back); err != nil || back.State != c.rel.State || back.Assets != c.rel.Assets || back.Detail != c.rel.Detail {
			t.Errorf("%s: round trip %+v, %v", c.rel.State, back, err)
		}
	}
	// Inside a row too (list -o json, get -o json, and YAML through JSON).
	b, err := json.Marshal(&AppView{Release: Release{State: ReleaseOff, Detail: "release checks are off"}})
	if err != nil || strings.Contains(string(b), `"assets"`) || !strings.Contains(string(b), `"release":{"state":"off"`) {
		t.Errorf("row: %s, %v", b, err)
	}
}

// The upgrade line says what the operator reports, no "- -" for a phase
// and target it did not report.
func TestUpgradeWords(t *testing.T) {
	for _, c := range []struct {
		u    Upgrade
		want string
	}{
		{Upgrade{LastGoodImage: "ghcr.io/x/api:v1"}, "none under way · last good ghcr.io/x/api:v1"},
		{Upgrade{Phase: "Rolling", TargetImage: "ghcr.io/x/api:v2", LastGoodImage: "ghcr.io/x/api:v1"}, "Rolling ghcr.io/x/api:v2 · last good ghcr.io/x/api:v1"},
		{Upgrade{Phase: "Failed", TargetImage: "ghcr.io/x/api:v2"}, "Failed ghcr.io/x/api:v2"},
		{Upgrade{}, "none under way"},
	} {
		if got := c.u.Words(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.u, got, c.want)
		}
	}
}
