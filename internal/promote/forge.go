// Package promote is the promotion use case: a release's tag written into the
// App CR that declares it in git, as a pull request opened as the engineer,
// merged and synced on request, and followed on the row until it runs.
package promote

import (
	"cmp"
	"context"
	"time"
)

// Repo names a repository on the configured GitHub host. Where it came from
// (an Application's spec.source.repoURL) is outside input: the host is checked
// against the configured one before a Repo is made, never taken from it.
type Repo struct {
	Owner, Name string
}

func (r Repo) String() string { return r.Owner + "/" + r.Name }

// FileEdit is one file's new bytes and the blob they replace, so a change of
// the base between reading and writing is refused rather than overwritten.
type FileEdit struct {
	Path    string
	OldSHA  string
	Content []byte
}

// Change is one pull request: every file of a promotion in one commit (a
// marked set is one commit too), on its own branch, never on the base.
type Change struct {
	Repo    Repo
	Base    string // the base branch the Application tracks
	Branch  string // driftboard/<env>/<app>-<tag>
	Title   string
	Body    string
	Message string // the commit message
	Files   []FileEdit
}

// PRState is a pull request's state as GitHub reports it.
type PRState string

const (
	PROpen   PRState = "open"
	PRMerged PRState = "merged"
	PRClosed PRState = "closed" // closed without a merge
)

// Checks is the combined state of a head commit's checks and statuses.
type Checks string

const (
	ChecksNone    Checks = "none" // the commit has no checks or statuses
	ChecksPending Checks = "pending"
	ChecksPassed  Checks = "success"
	ChecksFailed  Checks = "failure"
	ChecksUnknown Checks = "unknown" // could not be read
)

// PullRequest is what was observed of one pull request.
type PullRequest struct {
	Repo     Repo
	Number   int
	URL      string // its html_url, sanitised before any terminal
	Branch   string
	Base     string
	Title    string
	Body     string // a set's names the Apps it promotes (SetMembers)
	State    PRState
	HeadSHA  string
	MergeSHA string // set once merged
	Checks   Checks
	OpenedAt time.Time
	MergedAt time.Time
	ClosedAt time.Time
	// Reused: an open pull request for the same branch already existed and
	// is returned instead of a second one.
	Reused bool
}

// Forge is the git host as the promotion needs it. The GitHub
// implementation sends the user's own token, over https, to the configured
// host only; the demo simulates one.
type Forge interface {
	// Login is the account behind the token (GET /user).
	Login(ctx context.Context) (string, error)
	// Tree lists the paths of the files under dir at ref, recursively.
	Tree(ctx context.Context, repo Repo, ref, dir string) ([]string, error)
	// ReadFile reads one file at ref: its bytes and its blob SHA.
	ReadFile(ctx context.Context, repo Repo, ref, path string) (content []byte, blobSHA string, err error)
	// Propose opens the pull request of a change: a branch from the base's
	// head, one commit with every file, the pull request. An open pull
	// request for the same branch is returned (Reused) and nothing is written.
	Propose(ctx context.Context, c Change) (PullRequest, error)
	// PullRequest reads one pull request, with its head commit's checks.
	PullRequest(ctx context.Context, repo Repo, number int) (PullRequest, error)
	// OpenPullRequests lists the open pull requests whose branch starts with
	// prefix, so promotions in flight are found again when the board starts.
	OpenPullRequests(ctx context.Context, repo Repo, branchPrefix string) ([]PullRequest, error)
	// MergedPullRequests lists the pull requests whose branch starts with
	// prefix merged since since, the newest merge first, so a promotion
	// merged but not yet live is found again when the board starts.
	MergedPullRequests(ctx context.Context, repo Repo, branchPrefix string, since time.Time) ([]PullRequest, error)
	// Merge merges a pull request if its head is still headSHA.
	Merge(ctx context.Context, repo Repo, number int, headSHA string) (PullRequest, error)
}

// NewestMergeFirst orders pull requests as MergedPullRequests returns them:
// by merge time, the later number first within a second (GitHub's times
// are in seconds).
func NewestMergeFirst(a, b PullRequest) int {
	return cmp.Or(b.MergedAt.Compare(a.MergedAt), b.Number-a.Number)
}

// Refused is an answer that wrote nothing: no token, no permission, a host
// that is not the configured one, or the forge's own refusal (branch
// protection, reviews, failing checks) in its own words.
type Refused struct {
	Reason string
}

func (r *Refused) Error() string { return "refused: " + r.Reason }
