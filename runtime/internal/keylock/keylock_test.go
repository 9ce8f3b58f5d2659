package keylock

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestMutualExclusionAndCleanup(t *testing.T) {
	var s Set[string]
	var inside, max int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Lock(context.Background(), "k"); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			inside++
			if inside > max {
				max = inside
			}
			mu.Unlock()
			mu.Lock()
			inside--
			mu.Unlock()
			s.Unlock("k")
		}()
	}
	wg.Wait()
	if max != 1 {
		t.Fatalf("%d holders at once", max)
	}
	if s.Len() != 0 {
		t.Fatalf("%d locks left", s.Len())
	}
}

func TestCancelledWait(t *testing.T) {
	var s Set[int]
	if err := s.Lock(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Lock(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("Lock on a held key with a cancelled context: %v", err)
	}
	if err := s.Lock(context.Background(), 2); err != nil {
		t.Fatal("other keys are independent")
	}
	s.Unlock(1)
	s.Unlock(2)
	if s.Len() != 0 {
		t.Fatalf("%d locks left", s.Len())
	}
}
