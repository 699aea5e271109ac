package keymap

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
)

// keyScope is where a key acts: a dialog, and the log view's own keys, have
// the keys to themselves, so a board override never takes their keys.
type keyScope int

const (
	scopeBoard keyScope = iota
	scopeDialog
	scopeLogs
)

// keyAction is one bindable action: its name in the config file's `keys:`
// section, its binding and its scope.
type keyAction struct {
	name  string
	b     *key.Binding
	scope keyScope
}

// actions names every binding of the key map as the config file's `keys:`
// section spells it; it is the one list of bindable actions.
func (k *Map) actions() []keyAction {
	const b, d, l = scopeBoard, scopeDialog, scopeLogs
	return []keyAction{
		{"up", &k.Up, b}, {"down", &k.Down, b}, {"pageUp", &k.PageUp, b}, {"pageDown", &k.PageDown, b},
		{"halfPageUp", &k.HalfPageUp, b}, {"halfPageDown", &k.HalfPageDown, b},
		{"home", &k.Home, b}, {"end", &k.End, b}, {"filter", &k.Filter, b}, {"back", &k.Back, b},
		{"sort", &k.Sort, b}, {"nextProblem", &k.NextProblem, b}, {"prevProblem", &k.PrevProblem, b},
		{"onlyDrifted", &k.OnlyDrifted, b}, {"env", &k.Env, b}, {"saved", &k.Saved, b},
		{"actions", &k.Actions, b}, {"detail", &k.Detail, b}, {"restart", &k.Restart, b},
		{"copy", &k.Copy, b}, {"open", &k.Open, b}, {"yaml", &k.YAML, b}, {"jump", &k.Jump, b},
		{"login", &k.Login, b}, {"help", &k.Help, b}, {"suspend", &k.Suspend, b}, {"quit", &k.Quit, b},
		{"mark", &k.Mark, b}, {"markAll", &k.MarkAll, b}, {"restartSet", &k.RestartSet, b}, {"logs", &k.Logs, b},
		{"promote", &k.Promote, b}, {"promoteMerge", &k.PromoteMerge, b}, {"promoteSync", &k.PromoteSync, b},
		{"yes", &k.Yes, d}, {"no", &k.No, d}, {"accept", &k.Accept, d}, {"promoteTag", &k.PromoteTag, d},
		{"logFollow", &k.LogFollow, l}, {"logPrevious", &k.LogPrevious, l}, {"logWrap", &k.LogWrap, l}, {"logPick", &k.LogPick, l},
	}
}

// Actions are the board's action names that Options.Keys (and the config
// file's `keys:`) may rebind, in help order.
func Actions() []string {
	var k Map
	var out []string
	for _, a := range k.actions() {
		out = append(out, a.name)
	}
	return out
}

// WithOverrides rebinds the named actions to the given keys, help included.
// A key taken by an override leaves the action it was bound to by default,
// so one key never means two things; an action left with no key disappears
// from the help. Unknown actions and empty lists are ignored (the config
// file rejects them before they get here).
func (k Map) WithOverrides(overrides map[string][]string) Map {
	taken := map[keyScope]map[string]bool{scopeBoard: {}, scopeDialog: {}, scopeLogs: {}}
	for _, a := range k.actions() {
		for _, s := range overrides[a.name] {
			taken[a.scope][s] = true
		}
	}
	for _, a := range k.actions() {
		keys, ok := overrides[a.name]
		if ok && len(keys) > 0 {
			a.b.SetKeys(slices.Clone(keys)...)
			a.b.SetHelp(helpKey(keys), a.b.Help().Desc)
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(a.b.Keys()), func(s string) bool { return taken[a.scope][s] })
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
