package kube

import (
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ReplacedReason is the refusal of a restart whose workload was deleted and
// re-created (a new UID) after the check the person confirmed.
const ReplacedReason = "The workload was replaced since you opened the dialog; nothing was restarted. Open it again to restart the new one."

// replaced reports whether the API server refused the patch because the
// object's UID is not the one the patch names (it was re-created): the
// patch sets metadata.uid, which the update validation refuses as Invalid
// with a FieldValueInvalid cause on metadata.uid ("field is immutable").
// The cause's field and type decide, never the message's words.
func replaced(err error) bool {
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Details == nil {
		return false
	}
	for _, c := range status.Status().Details.Causes {
		if c.Field == "metadata.uid" && c.Type == metav1.CauseTypeFieldValueInvalid {
			return true
		}
	}
	return false
}
