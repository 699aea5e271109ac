package modeltest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// RandomRow is a row from a small space of keys and sort fields, so that
// ties (same app name, same severity, same drift age) are common.
func RandomRow(rnd *rand.Rand) model.AppView {
	sevs := []drift.DriftSeverity{drift.SeverityOK, drift.SeverityYellow, drift.SeverityRed, ""}
	envs := append([]model.Env{""}, model.Envs...)
	v := model.AppView{
		Cluster:   fmt.Sprintf("c%d", rnd.IntN(3)),
		Namespace: fmt.Sprintf("ns%d", rnd.IntN(4)),
		App:       fmt.Sprintf("a%d", rnd.IntN(12)),
		Env:       envs[rnd.IntN(len(envs))],
	}
	v.Drift.Severity = sevs[rnd.IntN(len(sevs))]
	if rnd.IntN(3) > 0 {
		t := time.Date(2026, 1, 1, rnd.IntN(3), 0, 0, 0, time.UTC)
		v.DriftSince = &t
	}
	return v
}

// KeysOf is the rows' keys, in order.
func KeysOf(rows []*model.AppView) []model.Key {
	out := make([]model.Key, len(rows))
	for i, r := range rows {
		out[i] = r.Key()
	}
	return out
}
