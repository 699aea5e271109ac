package wire

import (
	"encoding/json"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/model"
)

// maxUpgradeHistory bounds status.upgradeHistory: the newest entries matter.
const maxUpgradeHistory = 10

// decodeUpgrade reads the operator's upgrade machinery: status.upgrade
// {targetImage, phase} and status.upgradeHistory[]. History entries are read
// leniently (image or targetImage; outcome or phase; completedAt or time).
func decodeUpgrade(d *decoder, st map[string]any, app *model.AppObject) {
	if up := d.object(st, "upgrade", "status.upgrade"); up != nil {
		app.Upgrade.TargetImage = d.str(up, "targetImage", "status.upgrade.targetImage")
		app.Upgrade.Phase = d.str(up, "phase", "status.upgrade.phase")
	}
	for i, e := range d.list(st, "upgradeHistory", "status.upgradeHistory", maxUpgradeHistory) {
		path := fmt.Sprintf("status.upgradeHistory[%d]", i)
		m, ok := e.(map[string]any)
		if !ok {
			d.fail(path, "want an object, got %s", typeName(e))
			continue
		}
		r := model.UpgradeRecord{
			Image:   firstStr(d, m, path, "image", "targetImage"),
			Outcome: firstStr(d, m, path, "outcome", "phase", "result"),
			At:      firstStr(d, m, path, "completedAt", "finishedAt", "time", "startedAt"),
			Message: d.str(m, "message", path+".message"),
		}
		app.Upgrade.History = append(app.Upgrade.History, r)
	}
}

func firstStr(d *decoder, m map[string]any, path string, keys ...string) string {
	for _, k := range keys {
		if s := d.str(m, k, path+"."+k); s != "" {
			return s
		}
	}
	return ""
}

// tagSetAt is when the App's declared tag was last set, from the server's
// managedFields: the newest operation owning spec.image.tag. Zero when no
// entry says (the board then shows "since ?", never its own start).
func tagSetAt(mf []metav1.ManagedFieldsEntry) time.Time {
	var at time.Time
	for _, e := range mf {
		if e.Time == nil || e.FieldsV1 == nil || e.Subresource != "" {
			continue
		}
		var fields map[string]any
		if json.Unmarshal(e.FieldsV1.GetRawBytes(), &fields) != nil {
			continue
		}
		spec, _ := fields["f:spec"].(map[string]any)
		image, _ := spec["f:image"].(map[string]any)
		if _, ok := image["f:tag"]; ok && e.Time.After(at) {
			at = e.Time.Time
		}
	}
	return at
}
