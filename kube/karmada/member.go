package karmada

import (
	"context"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// MemberList is the member's objects of the feed's kind, once the proxy's
// first list is in; its resourceVersion is the feed's event number.
func (f *Feed) MemberList(ctx context.Context, member string) (runtime.Object, error) {
	s, ok := f.members[member]
	if !ok {
		return nil, apierrors.NewNotFound(metav1.SchemeGroupVersion.WithResource("members").GroupResource(), member)
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-f.listed:
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	list := &metav1.List{ListMeta: metav1.ListMeta{ResourceVersion: strconv.FormatUint(f.seq, 10)},
		Items: make([]runtime.RawExtension, 0, len(s.objs))}
	for _, e := range s.objs {
		list.Items = append(list.Items, runtime.RawExtension{Object: e.obj})
	}
	return list, nil
}

// MemberWatch is the member's events after resourceVersion o.ResourceVersion
// (a MemberList's). Any other version (an object's, which the informer
// resumes from) is gone: the informer relists, from memory.
func (f *Feed) MemberWatch(ctx context.Context, member string, o metav1.ListOptions) (watch.Interface, error) {
	s, ok := f.members[member]
	if !ok {
		return nil, apierrors.NewNotFound(metav1.SchemeGroupVersion.WithResource("members").GroupResource(), member)
	}
	from, err := strconv.ParseUint(o.ResourceVersion, 10, 64)
	f.mu.Lock()
	gone := err != nil || from < s.trimmed || from > f.seq
	f.mu.Unlock()
	if gone {
		return nil, apierrors.NewResourceExpired("resource version " + o.ResourceVersion + " is not one of the proxy feed's")
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &memberWatch{ch: make(chan watch.Event), stop: cancel}
	go f.follow(ctx, s, from, w.ch)
	return w, nil
}

// follow sends s's events after from until ctx ends.
func (f *Feed) follow(ctx context.Context, s *stream, from uint64, ch chan<- watch.Event) {
	defer close(ch)
	next := from
	for {
		f.mu.Lock()
		if next < s.trimmed { // fell behind the kept events
			f.mu.Unlock()
			st := apierrors.NewResourceExpired("the watch fell behind the proxy feed").Status()
			select {
			case ch <- watch.Event{Type: watch.Error, Object: &st}:
			case <-ctx.Done():
			}
			return
		}
		var pending []event
		for i := len(s.events) - 1; i >= 0 && s.events[i].seq > next; i-- {
			pending = append(pending, s.events[i])
		}
		wake := s.wake
		f.mu.Unlock()
		for i := len(pending) - 1; i >= 0; i-- {
			select {
			case ch <- watch.Event{Type: pending[i].typ, Object: pending[i].obj}:
				next = pending[i].seq
			case <-ctx.Done():
				return
			}
		}
		if len(pending) > 0 {
			continue
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return
		}
	}
}

type memberWatch struct {
	ch   chan watch.Event
	stop context.CancelFunc
}

func (w *memberWatch) Stop()                          { w.stop() }
func (w *memberWatch) ResultChan() <-chan watch.Event { return w.ch }

// DropMember deletes every object of member from its stream, as events: a
// member removed from Karmada is dropped from the proxy's cache without a
// DELETED event for its objects.
func (f *Feed) DropMember(member string) {
	s, ok := f.members[member]
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for key, old := range s.objs {
		delete(s.objs, key)
		f.emit(s, watch.Deleted, old.obj)
	}
}
