package ui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
)

// keyAction is one bindable action: its name in the config file's `keys:`
// section and its binding. Dialog actions are a scope of their own: a
// dialog has the keys to itself, so a board override never takes its keys.
type keyAction struct {
	name   string
	b      *key.Binding
	dialog bool
}

// actions names every binding of the key map as the config file's `keys:`
// section spells it; it is the one list of bindable actions.
func (k *keyMap) actions() []keyAction {
	return []keyAction{
		{"up", &k.Up, false}, {"down", &k.Down, false}, {"pageUp", &k.PageUp, false}, {"pageDown", &k.PageDown, false},
		{"home", &k.Home, false}, {"end", &k.End, false}, {"filter", &k.Filter, false}, {"back", &k.Back, false},
		{"sort", &k.Sort, false}, {"nextProblem", &k.NextProblem, false}, {"prevProblem", &k.PrevProblem, false},
		{"onlyDrifted", &k.OnlyDrifted, false}, {"env", &k.Env, false}, {"saved", &k.Saved, false},
		{"actions", &k.Actions, false}, {"detail", &k.Detail, false}, {"restart", &k.Restart, false},
		{"copy", &k.Copy, false}, {"open", &k.Open, false}, {"yaml", &k.YAML, false}, {"jump", &k.Jump, false},
		{"login", &k.Login, false}, {"help", &k.Help, false}, {"quit", &k.Quit, false},
		{"mark", &k.Mark, false}, {"markAll", &k.MarkAll, false}, {"restartSet", &k.RestartSet, false},
		{"yes", &k.Yes, true}, {"no", &k.No, true}, {"accept", &k.Accept, true},
	}
}

// KeyActions are the board's action names that Options.Keys (and the config
// file's `keys:`) may rebind, in help order.
func KeyActions() []string {
	var k keyMap
	var out []string
	for _, a := range k.actions() {
		out = append(out, a.name)
	}
	return out
}

// withOverrides rebinds the named actions to the given keys, help included.
// A key taken by an override leaves the action it was bound to by default,
// so one key never means two things; an action left with no key disappears
// from the help. Unknown actions and empty lists are ignored (the config
// file rejects them before they get here).
func (k keyMap) withOverrides(overrides map[string][]string) keyMap {
	taken := map[bool]map[string]bool{false: {}, true: {}} // per scope
	for _, a := range k.actions() {
		for _, s := range overrides[a.name] {
			taken[a.dialog][s] = true
		}
	}
	for _, a := range k.actions() {
		keys, ok := overrides[a.name]
		if ok && len(keys) > 0 {
			a.b.SetKeys(slices.Clone(keys)...)
			a.b.SetHelp(helpKey(keys), a.b.Help().Desc)
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(a.b.Keys()), func(s string) bool { return taken[a.dialog][s] })
		if len(kept) == len(a.b.Keys()) {
			continue
		}
		if len(kept) == 0 {
			kept = nil // no keys: the binding is disabled and leaves the help
		}
		a.b.SetKeys(kept...)
		a.b.SetHelp(keptHelpKey(a.b.Help().Key, kept), a.b.Help().Desc)
	}
	return k
}

// prettyKey is a key as help shows it.
func prettyKey(s string) string {
	switch s {
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "left":
		return "←"
	case "right":
		return "→"
	case "pgdown":
		return "pgdn"
	}
	return s
}

func helpKey(keys []string) string {
	out := make([]string, 0, len(keys))
	for _, s := range keys {
		out = append(out, prettyKey(s))
	}
	return strings.Join(out, "/")
}

// keptHelpKey drops the parts of a default help key ("↑/k") whose keys were
// taken; if none is left, it names the first key that remains.
func keptHelpKey(help string, kept []string) string {
	if len(kept) == 0 {
		return ""
	}
	var parts []string
	for p := range strings.SplitSeq(help, "/") {
		for _, s := range kept {
			if prettyKey(s) == p {
				parts = append(parts, p)
				break
			}
		}
	}
	if len(parts) == 0 {
		return prettyKey(kept[0])
	}
	return strings.Join(parts, "/")
}
