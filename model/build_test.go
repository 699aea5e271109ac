package model

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/drift"
)

func TestBuildHealthyRow(t *testing.T) {
	t.Parallel()
	got := Build(baseApp(), baseWorkload(), foundRelease(), t0)
	want := AppView{
		ID: "hanzo/iam/main", Org: "hanzo", App: "iam", Env: "main", Repo: "hanzoai/iam",
		Registry: "ghcr.io/hanzoai/iam", DeclaredTag: "v1.2.3", RunningTag: "v1.2.3", LatestTag: "v1.2.3",
		Health: HealthGreen, Phase: "Running", Cluster: "prod", Namespace: "hanzo",
		Endpoints: []string{"https://iam.hanzo.ai"},
		Drift:     drift.Drift{Severity: drift.SeverityOK, Flags: []drift.DriftFlag{}},
		Kind:      "App", Role: "iam", Tenant: "hanzo",
		Workload: WorkloadView{Kind: KindDeployment, Name: "iam", Found: true, OwnedByApp: true, SpecTag: "v1.2.3",
			Desired: 2, Ready: 2, Updated: 2, Available: 2, Rollout: RolloutComplete},
		Release:    foundRelease(),
		ObservedAt: t0,
		CreatedAt:  t0.Add(-time.Hour),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Build (-want +got):\n%s", diff)
	}
}

func TestBuildJSONShape(t *testing.T) {
	t.Parallel()
	a := baseApp()
	a.Endpoints = nil
	b, err := json.Marshal(Build(a, nil, Release{State: ReleaseOff}, t0))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "org", "app", "env", "repo", "registry", "declaredTag", "runningTag", "latestTag",
		"health", "phase", "cluster", "namespace", "endpoints", "drift"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks design-document field %q", k)
		}
	}
	if !strings.Contains(string(b), `"endpoints":[]`) {
		t.Errorf("endpoints must encode as [], got %s", b)
	}
	if !strings.Contains(string(b), `"drift":{"severity":"ok","flags":[]}`) {
		t.Errorf("empty verdict must encode as {severity:ok,flags:[]}, got %s", b)
	}
}

func TestBuildOrgAndIdentity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name              string
		ns, repo          string
		labels, annots    map[string]string
		wantOrg, wantID   string
		wantRepo, wantEnv string
	}{
		{"hanzoai brand", "hanzo", "ghcr.io/hanzoai/iam", nil, nil, "hanzo", "hanzo/iam/main", "hanzoai/iam", "main"},
		{"zooai brand", "hanzo-testnet", "ghcr.io/zooai/iam", nil, nil, "zoo", "zoo/iam/test", "zooai/iam", "test"},
		{"luxfi brand", "hanzo-devnet", "ghcr.io/luxfi/iam", nil, nil, "lux", "lux/iam/dev", "luxfi/iam", "dev"},
		{"other namespace kept", "tenant-acme", "docker.io/acme/iam", nil, nil, "acme", "acme/iam/main", "acme/iam", "main"},
		{"label wins", "hanzo", "ghcr.io/hanzoai/iam", map[string]string{OrgLabel: "ops"}, map[string]string{OrgLabel: "x"}, "ops", "ops/iam/main", "hanzoai/iam", "main"},
		{"annotation", "hanzo", "ghcr.io/hanzoai/iam", nil, map[string]string{OrgLabel: "ops"}, "ops", "ops/iam/main", "hanzoai/iam", "main"},
		{"single-segment image falls back to tenant", "tenant-acme", "nginx", nil, nil, "acme", "acme/iam/main", "nginx", "main"},
		{"unknown namespace", "default", "ghcr.io/hanzoai/iam", nil, nil, "hanzo", "hanzo/iam/", "hanzoai/iam", ""},
		{"no image falls back to tenant", "hanzo-mainnet", "", nil, nil, "hanzo", "hanzo/iam/main", "", "main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := baseApp()
			a.Namespace, a.ImageRepository, a.Labels, a.Annotations = tt.ns, tt.repo, tt.labels, tt.annots
			v := Build(a, baseWorkload(), foundRelease(), t0)
			got := []string{v.Org, v.ID, v.Repo, string(v.Env), v.Registry}
			want := []string{tt.wantOrg, tt.wantID, tt.wantRepo, tt.wantEnv, tt.repo}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("org,id,repo,env,registry (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildRunningTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		mod     func(*Workload)
		running string
		spec    string
	}{
		{"matching container, not the first", func(*Workload) {}, "v1.2.3", "v1.2.3"},
		{"no match: first container", func(w *Workload) {
			w.Containers = []Container{{Name: "a", Image: "ghcr.io/other/a:v9.0.0"}, {Name: "b", Image: "ghcr.io/other/b:v8.0.0"}}
		}, "v9.0.0", "v9.0.0"},
		{"no containers", func(w *Workload) { w.Containers = nil }, "", ""},
		{"digest only is pinned: the short digest", func(w *Workload) { w.Containers = []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam@" + sha}} },
			"@" + sha[:len("sha256:")+12], "@" + sha[:len("sha256:")+12]},
		{"no tag runs latest", func(w *Workload) { w.Containers = []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam"}} }, "latest", "latest"},
		{"tag and digest: the tag", func(w *Workload) {
			w.Containers = []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.3@" + sha}}
		}, "v1.2.3", "v1.2.3"},
		{"pod set with most available wins", func(w *Workload) {
			w.Containers = []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.3.0"}}
			w.PodSets = []PodSet{
				{Name: "new", Current: true, Replicas: 1, Available: 0, Containers: []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.3.0"}}},
				{Name: "old", Replicas: 2, Available: 2, Containers: []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.3"}}, Digests: []string{sha}},
			}
		}, "v1.2.3", "v1.3.0"},
		{"tie goes to the current pod set", func(w *Workload) {
			w.PodSets = []PodSet{
				{Name: "old", Replicas: 1, Available: 1, Containers: []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.2"}}},
				{Name: "new", Current: true, Replicas: 1, Available: 1, Containers: []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.3"}}},
			}
		}, "v1.2.3", "v1.2.3"},
		{"no available pods: template", func(w *Workload) {
			w.PodSets = []PodSet{{Name: "old", Replicas: 2, Containers: []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v0.0.1"}}}}
		}, "v1.2.3", "v1.2.3"},
		{"malformed container image", func(w *Workload) { w.Containers = []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:bad tag"}} }, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wl := baseWorkload()
			tt.mod(wl)
			v := Build(baseApp(), wl, foundRelease(), t0)
			if diff := cmp.Diff([]string{tt.running, tt.spec}, []string{v.RunningTag, v.Workload.SpecTag}); diff != "" {
				t.Errorf("running, spec tag (-want +got):\n%s", diff)
			}
		})
	}
}

// An untagged image is the floating image the board exists to catch; a
// digest pins content, so it is neither floating nor un-rolled.
func TestBuildImageFacts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		image string
		want  []drift.DriftKind
	}{
		{"ghcr.io/hanzoai/iam", []drift.DriftKind{drift.DriftFloatingRunning, drift.DriftUnrolled}},
		{"ghcr.io/hanzoai/iam@" + sha, []drift.DriftKind{}},
		{"ghcr.io/hanzoai/iam:v1.2.3", []drift.DriftKind{}},
	} {
		wl := baseWorkload()
		wl.Containers = []Container{{Name: "iam", Image: tc.image}}
		v := Build(baseApp(), wl, foundRelease(), t0)
		if diff := cmp.Diff(tc.want, kindsOf(v.Drift)); diff != "" {
			t.Errorf("%s: flags (-want +got):\n%s", tc.image, diff)
		}
	}
}

func TestBuildHealthAndRollout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		wl      func() *Workload
		health  Health
		rollout RolloutState
		target  string
		msg     string
	}{
		{"missing workload", func() *Workload { return nil }, HealthUnknown, RolloutNone, "", ""},
		{"all ready", baseWorkload, HealthGreen, RolloutComplete, "", ""},
		{"scaled to zero", func() *Workload {
			w := baseWorkload()
			w.Replicas, w.ReadyReplicas, w.UpdatedReplicas, w.AvailableReplicas = ptr(int32(0)), 0, 0, 0
			return w
		}, HealthYellow, RolloutComplete, "", ""},
		{"replicas absent means 1", func() *Workload {
			w := baseWorkload()
			w.Replicas, w.ReadyReplicas, w.UpdatedReplicas = nil, 1, 1
			return w
		}, HealthGreen, RolloutComplete, "", ""},
		{"some ready", func() *Workload { w := baseWorkload(); w.ReadyReplicas = 1; return w },
			HealthYellow, RolloutProgressing, "v1.2.3", "2/2 updated, 1/2 ready."},
		{"none ready", func() *Workload { w := baseWorkload(); w.ReadyReplicas = 0; return w },
			HealthRed, RolloutProgressing, "v1.2.3", "2/2 updated, 0/2 ready."},
		{"rolling: updated below desired", func() *Workload {
			w := baseWorkload()
			w.UpdatedReplicas = 1
			w.Containers[1].Image = "ghcr.io/hanzoai/iam:v1.3.0"
			w.PodSets = []PodSet{{Name: "new", Current: true, Replicas: 1, Available: 1}, {Name: "old", Replicas: 1, Available: 1}}
			return w
		}, HealthYellow, RolloutProgressing, "v1.3.0", "1/2 updated, 2/2 ready, 1 old pods."},
		{"spec not yet observed", func() *Workload { w := baseWorkload(); w.Generation = 4; return w },
			HealthGreen, RolloutProgressing, "v1.2.3", "Waiting for the controller to observe the new spec."},
		{"paused", func() *Workload { w := baseWorkload(); w.Paused = true; w.UpdatedReplicas = 0; return w },
			HealthYellow, RolloutPaused, "", "Rollout is paused."},
		{"deadline exceeded", func() *Workload {
			w := baseWorkload()
			w.UpdatedReplicas = 1
			w.Conditions = []Condition{{Type: "Progressing", Status: "False", Reason: "ProgressDeadlineExceeded", Message: `ReplicaSet "iam-5d" has timed out progressing.`}}
			return w
		}, HealthYellow, RolloutStuck, "v1.2.3", `ReplicaSet "iam-5d" has timed out progressing.`},
		{"pod problems", func() *Workload {
			w := baseWorkload()
			w.ReadyReplicas = 1
			w.FailingPods = []PodFailure{
				{Pod: "iam-b", Reason: "ImagePullBackOff", Message: "pulling ghcr.io/hanzoai/iam:v9"},
				{Pod: "iam-a", Reason: "CrashLoopBackOff"}, {Pod: "iam-c", Reason: "ImagePullBackOff"},
			}
			return w
		}, HealthYellow, RolloutStuck, "v1.2.3", "CrashLoopBackOff: iam-a; ImagePullBackOff: iam-b (+1)"},
		{"more ready than desired", func() *Workload { w := baseWorkload(); w.ReadyReplicas = 3; return w }, HealthGreen, RolloutComplete, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := Build(baseApp(), tt.wl(), foundRelease(), t0)
			got := []string{string(v.Health), string(v.Workload.Rollout), v.Workload.TargetTag, v.Workload.Message}
			want := []string{string(tt.health), string(tt.rollout), tt.target, tt.msg}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("health, rollout, target, message (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildRestartAnnotations(t *testing.T) {
	t.Parallel()
	wl := baseWorkload()
	wl.TemplateAnnotations = map[string]string{RestartedAtAnnotation: "2026-11-30T01:00:00Z", RestartedByAnnotation: "alice"}
	v := Build(baseApp(), wl, foundRelease(), t0)
	if diff := cmp.Diff([]string{"2026-11-30T01:00:00Z", "alice"}, []string{v.Workload.RestartedAt, v.Workload.RestartedBy}); diff != "" {
		t.Errorf("restart (-want +got):\n%s", diff)
	}
}

func TestBuildRunningDigestsFollowThePodSet(t *testing.T) {
	t.Parallel()
	wl := baseWorkload()
	wl.PodSets = []PodSet{
		{Name: "new", Current: true, Replicas: 1, Available: 1, Containers: wl.Containers, Digests: []string{"sha256:new"}},
		{Name: "old", Replicas: 3, Available: 3, Containers: []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.2"}}, Digests: []string{"sha256:old"}},
	}
	v := Build(baseApp(), wl, foundRelease(), t0)
	if diff := cmp.Diff([]string{"sha256:old"}, v.Workload.Digests); diff != "" {
		t.Errorf("digests (-want +got):\n%s", diff)
	}
	if v.RunningTag != "v1.2.2" || v.Workload.Rollout != RolloutProgressing || v.Workload.TargetTag != "v1.2.3" {
		t.Errorf("running %q rollout %q target %q, want v1.2.2 progressing v1.2.3", v.RunningTag, v.Workload.Rollout, v.Workload.TargetTag)
	}
	if diff := cmp.Diff([]drift.DriftKind{drift.DriftUnrolled}, kindsOf(v.Drift)); diff != "" {
		t.Errorf("mid-rollout flags (-want +got):\n%s", diff)
	}
}

func TestRolloutSettledButUnready(t *testing.T) {
	t.Parallel()
	two := int32(2)
	wl := &Workload{
		Kind: KindDeployment, Name: "api", Replicas: &two, Generation: 3, ObservedGeneration: 3,
		ReadyReplicas: 1, UpdatedReplicas: 2, AvailableReplicas: 1,
		Containers: []Container{{Name: "api", Image: "ghcr.io/hanzoai/api:v1.0.0"}},
		Conditions: []Condition{{Type: "Progressing", Status: "True", Reason: "NewReplicaSetAvailable"}},
	}
	app := AppObject{Key: Key{Cluster: "c", Namespace: "hanzo", Name: "api"}, Kind: "App",
		ImageRepository: "ghcr.io/hanzoai/api", ImageTag: "v1.0.0"}
	v := Build(app, wl, Release{State: ReleaseOff}, time.Unix(0, 0))
	if v.Workload.Rollout != RolloutComplete || v.Health != HealthYellow {
		t.Fatalf("settled rollout with an unready pod: rollout %q health %q, want complete/yellow", v.Workload.Rollout, v.Health)
	}
	wl.Conditions = nil
	if v := Build(app, wl, Release{State: ReleaseOff}, time.Unix(0, 0)); v.Workload.Rollout != RolloutProgressing {
		t.Fatalf("unsettled rollout: %q, want progressing", v.Workload.Rollout)
	}
}
