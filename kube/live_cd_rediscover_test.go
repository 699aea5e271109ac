package kube

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// Between Hanzo CD's uninstall (its CRD seen going) and the replacing
// watch set up from discovery, the rows' git state is not the last one the
// retired watch saw: with that set-up (discovery, the CRD probes) held in
// the client's transport, the row says its Applications are not synced
// yet; released, "no Application kind served".
func TestLiveGitNotLastSeenWhileCDIsRediscovered(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	seed(t, c, "hanzo", "iam", "", "v1.0.0", 1)
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	putApplication(t, c, testcluster.HanzoCDApplicationsGVR, "hanzo-cd", "universe-crs", cdResource("hanzo", "iam", "OutOfSync"))

	var hold atomic.Bool
	held, release := atomic.Int32{}, make(chan struct{}) // a request still held at the end ends with the fleet's context
	discovery := "/apis/" + testcluster.HanzoCDApplicationsGVR.GroupVersion().String()
	crdList := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions" // the set-up's CRD probes (a retiring CRD is read by name)
	wrap := func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if hold.Load() && (req.URL.Path == discovery || req.URL.Path == crdList) {
				held.Add(1)
				select {
				case <-release:
				case <-req.Context().Done():
					return nil, req.Context().Err()
				}
			}
			return rt.RoundTrip(req)
		})
	}
	f, _ := startFleetThrough(t, c, wrap, FleetOptions{Principal: principal(superAdmin)})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "iam out of sync", func(r *model.AppView) bool { return r != nil && r.Git.State == model.GitOutOfSync })

	hold.Store(true)
	uninstallApplicationCRD(t, c)
	waitRow(t, f, iam, "iam's git not the retired watch's while CD is rediscovered", func(r *model.AppView) bool {
		return r != nil && r.Git.State == model.GitUnknown && r.Git.Why == model.GitWhyNotSynced && held.Load() > 0
	})
	hold.Store(false)
	close(release)
	waitRow(t, f, iam, "iam: no Application kind served", noKind)
}
