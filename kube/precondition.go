package kube

import (
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/hanzoai/driftboard/model"
)

// ReplacedReason is the refusal of a restart whose workload was deleted and
// re-created (a new UID) after the check the person confirmed.
const ReplacedReason = "The workload was replaced since you opened the dialog; nothing was restarted. Open it again to restart the new one."

// rememberChecked keeps the UID of the workload an allowed check saw: the
// restart that follows (the dialog's confirm, the command's yes) acts only
// on that very object.
func (f *Fleet) rememberChecked(key model.Key, uid string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.checkedUID == nil {
		f.checkedUID = map[model.Key]string{}
	}
	f.checkedUID[key] = uid
}

// takeChecked returns (and forgets) the UID the last allowed check saw.
func (f *Fleet) takeChecked(key model.Key) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	uid, ok := f.checkedUID[key]
	delete(f.checkedUID, key)
	return uid, ok
}

// replaced reports whether the API server refused the patch because the
// object's UID is not the one the patch names (it was re-created): a patch
// setting metadata.uid to another value is Invalid ("field is immutable"),
// a precondition on it a Conflict.
func replaced(err error) bool {
	return apierrors.IsInvalid(err) && strings.Contains(err.Error(), "metadata.uid") ||
		apierrors.IsConflict(err) && strings.Contains(err.Error(), "UID")
}
