package karmada

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

func object(member, ns, name, rv string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetResourceVersion(rv)
	if member != "" {
		u.SetAnnotations(map[string]string{CachedFromAnnotation: member})
	}
	return u
}

func newTestFeed(members ...string) *Feed {
	return NewFeed(Kind{Name: "apps", Convert: func(_ string, obj runtime.Object) (runtime.Object, error) { return obj, nil }},
		members, func(error) {})
}

func names(t *testing.T, f *Feed, member string) map[string]string {
	t.Helper()
	l, err := f.MemberList(context.Background(), member)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range l.(*metav1.List).Items {
		u := it.Object.(*unstructured.Unstructured)
		out[u.GetNamespace()+"/"+u.GetName()] = u.GetResourceVersion()
		if _, ok := u.GetAnnotations()[CachedFromAnnotation]; ok {
			t.Errorf("%s/%s keeps the proxy's annotation", u.GetNamespace(), u.GetName())
		}
	}
	return out
}

// An object is a member's only when its annotation names a configured
// member exactly; anything else is dropped, and counted when it names a
// member (Karmada's own objects name none).
func TestFeedSplitsByConfiguredMembersOnly(t *testing.T) {
	f := newTestFeed("member1", "member2")
	err := f.Replace([]any{
		object("member1", "a", "web", "1"),
		object("member2", "a", "web", "2"),
		object("member1\x1b[2J", "a", "evil", "3"),
		object("../member1", "a", "evil", "4"),
		object("https://attacker.example", "a", "evil", "5"),
		object("", "a", "none", "6"),
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, f, "member1"); len(got) != 1 || got["a/web"] != "1" {
		t.Errorf("member1's objects = %v, want a/web at 1", got)
	}
	if got := names(t, f, "member2"); len(got) != 1 || got["a/web"] != "2" {
		t.Errorf("member2's objects = %v, want a/web at 2", got)
	}
	if f.Stray() != 3 {
		t.Errorf("stray objects = %d, want 3", f.Stray())
	}
	if err := f.Replace([]any{object("member1", "a", "web", "1"), object("member3", "a", "web", "7")}, ""); err != nil {
		t.Fatal(err)
	}
	if f.Stray() != 1 {
		t.Errorf("stray objects after a relist serving one = %d, want 1", f.Stray())
	}
	if _, err := f.MemberList(context.Background(), "member3"); err == nil {
		t.Error("an unconfigured member has a list")
	}
}

// A relist of the proxy reaches a member's watch as the differences: a
// changed object modified, a vanished one deleted, an unchanged one silent.
func TestFeedRelistSendsDifferences(t *testing.T) {
	f := newTestFeed("member1")
	if err := f.Replace([]any{object("member1", "a", "web", "1"), object("member1", "a", "db", "1")}, ""); err != nil {
		t.Fatal(err)
	}
	l, _ := f.MemberList(context.Background(), "member1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	w, err := f.MemberWatch(ctx, "member1", metav1.ListOptions{ResourceVersion: l.(*metav1.List).ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := f.Replace([]any{object("member1", "a", "web", "2")}, ""); err != nil {
		t.Fatal(err)
	}
	got := map[string]watch.EventType{}
	for len(got) < 2 {
		select {
		case ev := <-w.ResultChan():
			u := ev.Object.(*unstructured.Unstructured)
			got[u.GetName()] = ev.Type
		case <-ctx.Done():
			t.Fatalf("events after the relist: %v, want web modified and db deleted", got)
		}
	}
	if got["web"] != watch.Modified || got["db"] != watch.Deleted {
		t.Errorf("events after the relist: %v, want web modified and db deleted", got)
	}
}

// A watch from a version that is not the feed's (an object's, which an
// informer resumes from) is gone, so the informer relists from memory.
func TestFeedWatchFromForeignVersionIsGone(t *testing.T) {
	f := newTestFeed("member1")
	if err := f.Replace(nil, ""); err != nil {
		t.Fatal(err)
	}
	_, err := f.MemberWatch(context.Background(), "member1", metav1.ListOptions{ResourceVersion: "eyJtZW1iZXIxIjoiMSJ9"})
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Errorf("watch from a proxy version: %v, want 410 expired", err)
	}
}

// A member dropped (removed from Karmada) has its objects deleted, as events.
func TestFeedDropMemberDeletesItsObjects(t *testing.T) {
	f := newTestFeed("member1", "member2")
	if err := f.Replace([]any{object("member1", "a", "web", "1"), object("member2", "a", "web", "1")}, ""); err != nil {
		t.Fatal(err)
	}
	f.DropMember("member1")
	if got := names(t, f, "member1"); len(got) != 0 {
		t.Errorf("member1's objects after it was dropped: %v", got)
	}
	if got := names(t, f, "member2"); len(got) != 1 {
		t.Errorf("member2's objects after member1 was dropped: %v", got)
	}
}
