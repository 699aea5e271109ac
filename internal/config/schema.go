package config

import (
	"encoding/json"
	"reflect"
	"strings"
)

// descriptions of schema properties by dotted path ("*" = any map key).
var descriptions = map[string]string{
	"":                        "driftboard configuration ($XDG_CONFIG_HOME/driftboard/config.yaml)",
	"contexts":                "kubeconfig contexts watched when --context is not given (default: the current context)",
	"issuer":                  "IAM OIDC issuer URL (flag --issuer, env HANZO_IAM_ISSUER; default " + DefaultIssuer + ")",
	"clientID":                "public OAuth client id (flag --client-id, env HANZO_CLIENT_ID; default " + DefaultClientID + ")",
	"theme":                   "colours: auto follows the terminal background",
	"readOnly":                "disable every action on every context (flag --readonly)",
	"perContext":              "settings per kubeconfig context name",
	"perContext.*":            "settings for one context",
	"perContext.*.readOnly":   "disable every action on this context",
	"savedFilters":            "named queries in the board's query language, selectable in the board",
	"keys":                    "key binding overrides: board action name to the keys that trigger it",
	"iam":                     "where the IAM identity may go",
	"iam.clusters":            "API servers declared as trusting the IAM issuer, by https server URL or context name pinned to its server (name=https://host:port); only they receive the IAM token (flag --iam-cluster adds for one run, where a bare context name counts)",
	"restart":                 "restarts of a marked set (the board's R) and of a query (restart -q)",
	"restart.maxParallel":     "how many restarts (and rollouts followed) run at once (minimum 1, default 3; flag --max-parallel for restart -q)",
	"logs":                    "the board's log view (l)",
	"logs.maxLines":           "how many lines the log view keeps; older ones are dropped, and the view says so (10 to 1000000, default 5000)",
	"cd":                      "CD (Hanzo CD, Argo CD) Applications that give each row its git sync state",
	"cd.applicationKinds":     "Application resources looked for, in order, as resource.group[/version][@namespace] (the namespace is read when the identity may not list them cluster-wide); default applications.apps.hanzo.ai/v1alpha1@hanzo-cd, applications.argoproj.io/v1alpha1@argocd; full names only (Hanzo CD's short names collide with the App's)",
	"promote":                 "promotions: a release's tag written into the App CR that declares it in git, as a pull request",
	"promote.files":           "the file that declares an App, for fleets without CD: key <namespace>/<app> (or <app>, any namespace); overrides the lookup through the CD Application that manages the App",
	"promote.files.*":         "one App's declaring file",
	"promote.files.*.repo":    "GitHub owner/repo on the releases.githubURL host",
	"promote.files.*.path":    "the .yaml or .yml file, from the repository's root, e.g. infra/k8s/operator/crs/gateway-v1.yaml",
	"promote.files.*.branch":  "the base branch the pull request goes to (default main)",
	"promote.budgets":         "how long each step of a promotion may take before the row says it is late, Go durations",
	"promote.budgets.review":  "pull request opened → merged (default 24h)",
	"promote.budgets.sync":    "merged → CD synced to the merge commit (default 10m)",
	"promote.budgets.rollout": "the App declares the tag → every pod runs the release (default 15m)",
	"karmada":                 "member clusters read through Karmada's search proxy: one list and watch per kind for all of them, as the Karmada context's identity",
	"karmada.context":         "the kubeconfig context of Karmada's API server (its search proxy serves the members' Apps, workloads, ReplicaSets and Hanzo CD Applications)",
	"karmada.members":         "each member's Cluster name in Karmada to the kubeconfig context its restarts, logs and Events go to (with that context's identity and IAM trust); \"\" for none: its actions are refused. A member's context is not also watched direct",
	"karmada.members.*":       "the member's kubeconfig context for actions, or \"\"",
	"karmada.whileDegraded":   "while the search proxy fails: \"direct\" (default) reads each member with a context from it, as that identity, until the proxy answers; \"wait\" keeps their rows stale until then",
	"releases":                "GitHub release checks (latest tag, release URL, assets)",
	"releases.enabled":        "false hides release-derived drift (flag --releases=off)",
	"releases.interval":       "how often each repository is re-read, a Go duration (minimum 1m, default 10m)",
	"releases.githubURL":      "GitHub API base URL (GitHub Enterprise: https://host/api/v3/)",
	"releases.repos":          "image paths to GitHub repositories, tried in order before the defaults (oci.hanzo.ai/hanzo/* → hanzoai/*; tenant images: none); otherwise an image's <owner>/<repo> path is the repository",
	"releases.repos[]":        "one mapping",
	"releases.repos[].image":  "image pattern host/path; * matches within one segment, e.g. oci.hanzo.ai/hanzo/*",
	"releases.repos[].github": "GitHub owner/repo; * stands for the image's starred segment; empty: not looked up",
}

var enums = map[string][]string{"theme": {"auto", "dark", "light"}}

// ranges bound integer settings by dotted path: [minimum, maximum]; 0 is
// no maximum. Absent: at least 1.
var ranges = map[string][2]int{"logs.maxLines": {MinLogLines, MaxLogLines}}

// Schema returns the config file's JSON Schema (draft 2020-12), derived from
// the Config type so the two cannot disagree.
func Schema() []byte {
	s := schemaOf(typeOfConfig, "")
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	s["title"] = "driftboard config"
	out, _ := json.MarshalIndent(s, "", "  ") // maps of strings and bools always marshal
	return append(out, '\n')
}

func schemaOf(t reflect.Type, path string) map[string]any {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s := map[string]any{}
	if d, ok := descriptions[path]; ok {
		s["description"] = d
	}
	switch t.Kind() {
	case reflect.Struct:
		props := map[string]any{}
		for name, f := range jsonFields(t) {
			props[name] = schemaOf(f.Type, join(path, name))
		}
		s["type"] = "object"
		s["properties"] = props
		s["additionalProperties"] = false
	case reflect.Map:
		s["type"] = "object"
		s["additionalProperties"] = schemaOf(t.Elem(), join(path, "*"))
	case reflect.Slice:
		s["type"] = "array"
		s["items"] = schemaOf(t.Elem(), path+"[]")
	case reflect.Bool:
		s["type"] = "boolean"
	case reflect.Int:
		s["type"] = "integer"
		s["minimum"] = 1 // every integer setting counts something that runs
		if r, ok := ranges[path]; ok {
			s["minimum"], s["maximum"] = r[0], r[1]
		}
	case reflect.String:
		s["type"] = "string"
		if e, ok := enums[path]; ok {
			s["enum"] = e
		}
		if strings.HasSuffix(path, "URL") || path == "issuer" {
			s["format"] = "uri"
		}
	}
	return s
}
