package promote

import (
	"context"
	"fmt"

	"github.com/hanzoai/driftboard/model"
)

// CD is what asking CD to apply a merged promotion needs of the clusters;
// kube's Fleet implements it with the same trust rules as a restart (the
// IAM identity, only on clusters declared as trusting its issuer).
type CD interface {
	SyncApplication(ctx context.Context, key model.Key, req SyncRequest) (SyncResult, error)
}

// SyncRequest asks the Application that syncs an App's file to apply
// Revision (the merge commit).
type SyncRequest struct {
	Application string // "<group>/<namespace>/<name>"
	Revision    string
	DryRun      bool // server-side dry run: checked and authorized, nothing changes
}

// SyncResult says what was asked of CD.
type SyncResult struct {
	Application string
	// Refresh: the Application syncs by itself, so it was asked to refresh
	// (apps.hanzo.ai/refresh) rather than given a sync operation.
	Refresh  bool
	Revision string
	By       string // initiatedBy.username: who the API server says acts
	DryRun   bool
	Checks   []model.Check
}

// SyncRefused is a sync refused before anything was sent.
type SyncRefused struct {
	Reason string
	Checks []model.Check
}

func (e *SyncRefused) Error() string { return "sync refused: " + e.Reason }

// Sync asks CD to apply a merged promotion, once confirmed.
func Sync(ctx context.Context, cd CD, p model.PromotionPlan, pr PullRequest, c Confirmation, dryRun bool) (SyncResult, error) {
	switch {
	case p.Application == "":
		return SyncResult{}, &Refused{Reason: "no CD Application syncs " + p.Path + " (the config named the file): CD is not asked"}
	case pr.State != PRMerged || pr.MergeSHA == "":
		return SyncResult{}, &Refused{Reason: fmt.Sprintf("pull request #%d is %s, not merged: there is no revision to sync", pr.Number, pr.State)}
	}
	if why := confirmed(p, c); why != "" && !dryRun {
		return SyncResult{}, &Refused{Reason: why}
	}
	return cd.SyncApplication(ctx, p.Key, SyncRequest{Application: p.Application, Revision: pr.MergeSHA, DryRun: dryRun})
}
