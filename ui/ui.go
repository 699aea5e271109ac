// Package ui is the driftboard terminal program: one root bubbletea model
// that routes messages to its components (the table and query line in
// ui/board, the dialogs in ui/dialog, the detail, log and YAML views in
// ui/detail, ui/logs and ui/yaml; the header, status and help lines here),
// drawn by the renderer in ui/terminal. It consumes the fleet
// through the small interfaces declared here and never imports kube or auth.
package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/terminal"
)

// Fleet is everything the board reads from and acts through, one method a
// capability; the board discovers nothing at run time. Its restarts are the
// restart use case over the same fleet (cli's composition builds both). A
// fleet whose source cannot do a thing answers with a
// *model.NotAvailableError saying why, and the view shows it.
type Fleet interface {
	Source
	Restarter
	DigestReader
	EventWatcher
	LogReader
	YAMLReader
	Promoter
}

// Source is the fleet as the board reads it: a coalescing change signal,
// cheap immutable snapshots, and when its clusters first settled.
type Source interface {
	Changed() <-chan struct{}
	Snapshot() *store.Snapshot
	Settler
}

// Restarter is the restart use case the board calls for its one action
// (internal/restart.Restarts over the same fleet): the rules (read-only,
// confirmation, the binding to what the dialog showed, the rollout follow)
// live there.
type Restarter interface {
	Refusal(row *model.AppView) string
	Check(ctx context.Context, in restart.CheckInput) (restart.Checked, error)
	Restart(ctx context.Context, in restart.Input) (restart.Output, error)
	Follow(ctx context.Context, in restart.FollowInput) (restart.FollowOutput, error)
	RestartSet(ctx context.Context, in restart.SetInput) (restart.SetOutput, error)
}

var _ Restarter = (*restart.Restarts)(nil)

// Promoter is the promotion use case the board calls (internal/promote
// over the same fleet and the configured GitHub, composed by cli): plan a
// release for one row or a marked set, open the pull request once
// confirmed, merge and sync on request, and read a promotion's state again
// (GitHub has no watch: the board polls). Its rules (the target release,
// the confirmation, what may be merged or synced) live there. A source
// with no forge answers *model.NotAvailableError.
type Promoter interface {
	PlanPromotion(ctx context.Context, key model.Key, to string) (promote.Planned, error)
	PlanPromotionSet(ctx context.Context, keys []model.Key, to string) (promote.PlannedSet, error)
	ProposePromotion(ctx context.Context, p promote.Planned, c promote.Confirmation) (model.Promotion, error)
	ProposePromotionSet(ctx context.Context, s promote.PlannedSet, c promote.Confirmation) ([]model.Promotion, error)
	MergePromotion(ctx context.Context, p model.Promotion, c promote.Confirmation) (model.Promotion, error)
	SyncPromotion(ctx context.Context, p model.Promotion, c promote.Confirmation) (promote.SyncResult, error)
	FollowPromotion(ctx context.Context, p model.Promotion) (model.Promotion, error)
	// PromotionsInFlight finds the promotions in flight again from the
	// open pull requests on the promotion branches (nothing is kept locally).
	PromotionsInFlight(ctx context.Context) (map[model.Key]model.Promotion, error)
}

// DigestReader reads the registry digests an app's pods run, on demand, for
// the detail view: how many pods it found, how many reported no digest, and
// the digests ("sha256:…", or image references carrying one). kube.Fleet
// does it with one LIST of the workload's pods.
type DigestReader interface {
	RunningDigests(ctx context.Context, key model.Key) (model.PodDigests, error)
}

// IdentityState is who the board acts as right now.
type IdentityState struct {
	Principal *model.Principal // nil when not logged in
	Expiry    time.Time        // access token expiry; zero if unknown
	Err       error            // why there is no usable identity (expired, unreadable, ...)
	Source    string           // where the identity came from, e.g. "~/.hanzo", "HANZO_TOKEN", "demo"
	// SwitchesUser: Login does not log in but switches to another of a
	// fixed set of users (the demo's), and the board says so.
	SwitchesUser bool
}

// LoggedIn reports whether the state carries a usable principal at now.
func (s IdentityState) LoggedIn(now time.Time) bool {
	return s.Principal != nil && s.Err == nil && (s.Expiry.IsZero() || now.Before(s.Expiry))
}

// LoginPrompt is what the user must do to finish a device-code login; the
// login dialog shows it.
type LoginPrompt = dialog.LoginPrompt

// Identity reports the current identity and logs in again from inside the
// board. Login blocks until done; it reports prompts through the callback.
type Identity interface {
	Current() IdentityState
	Login(ctx context.Context, prompt func(LoginPrompt)) error
}

// Options configure the board.
type Options struct {
	ReadOnly       bool              // disable every action, visibly
	NoColor        bool              // no colours (glyphs and words remain)
	Contexts       []string          // kube contexts shown, for the title when no cluster state is known yet
	SavedFilters   map[string]string // name → query, offered under "f"
	InitialQuery   string
	Keys           map[string][]string    // action (see KeyActions) → keys, replacing its default keys
	Now            func() time.Time       // injected clock; nil means time.Now
	DarkBackground *bool                  // force the background; nil means ask the terminal (dark until it answers)
	OpenURL        func(url string) error // opens a github.com page (o); nil: the address is shown instead
	// LogLines is how many lines the log view keeps (0: DefaultLogLines);
	// older lines are dropped, and the view says so.
	LogLines int
	// PromotePoll is how often a promotion in flight is read again from
	// GitHub, which has no watch (0: 5s).
	PromotePoll time.Duration
	// SetRestartLimit is how many restarts of a marked set run at once (0: 3).
	SetRestartLimit int
	// ExitReport receives Model.QuitReport when the board ends during a set
	// restart (nil: os.Stderr).
	ExitReport io.Writer
}

// KeyActions are the board's action names that Options.Keys (and the config
// file's `keys:`) may rebind, in help order.
func KeyActions() []string { return keymap.Actions() }

// frameRate is how often bubbletea's renderer wakes to flush a frame. It
// wakes that often even when nothing changes, so it is most of the idle
// cost (60, the default, alone cost ~0.25 s of CPU a minute); 12 keeps a
// change on screen within 84 ms of its snapshot.
const frameRate = 12

// New builds the root model. f may be nil: an empty board that says every
// capability is not available; id may be nil: actions are then refused
// with the reason.
func New(f Fleet, id Identity, opts Options) tea.Model {
	return newModel(context.Background(), f, id, opts)
}

// Run runs the board full-screen until the user quits or ctx ends. Colour is
// decided by colorprofile (NO_COLOR, TERM=dumb) or Options.NoColor.
func Run(ctx context.Context, f Fleet, id Identity, opts Options) error {
	if f == nil {
		return errors.New("ui: no fleet source")
	}
	profile := colorprofile.Detect(os.Stdout, os.Environ())
	if opts.NoColor || profile <= colorprofile.ASCII {
		opts.NoColor = true
		if profile > colorprofile.ASCII || profile == colorprofile.Unknown {
			profile = colorprofile.ASCII
		}
	}
	m := newModel(ctx, f, id, opts)
	final, err := runProgram(ctx, m, profile, os.Stdin, os.Stdout)
	if fm, ok := final.(*Model); ok {
		if report := fm.QuitReport(); report != "" {
			w := opts.ExitReport
			if w == nil {
				w = os.Stderr
			}
			fmt.Fprint(w, report)
		}
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // cancelled from outside (signal): a normal exit
	}
	return err
}

// runProgram runs the board on the terminal (terminal.Run draws each frame)
// where it can, else with bubbletea's renderer: stdin or stdout is not a
// terminal, or the platform has no such renderer.
func runProgram(ctx context.Context, m *Model, profile colorprofile.Profile, in, out *os.File) (tea.Model, error) {
	ask := m.opts.DarkBackground == nil
	final, ok, err := terminal.Run(ctx, m, terminal.Options{Profile: profile, In: in, Out: out, AskBackground: ask,
		Taken: func(setClipboard func(string)) { m.backgroundAsked, m.clipboard = ask, setClipboard }})
	if ok || err != nil {
		if final == nil {
			return nil, err
		}
		return final, err
	}
	return tea.NewProgram(m, tea.WithContext(ctx), tea.WithColorProfile(profile),
		tea.WithInput(in), tea.WithOutput(out), tea.WithFPS(frameRate)).Run()
}
