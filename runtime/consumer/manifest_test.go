package consumer_test

import (
	"errors"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/consumer"
)

// TestChooseVersion covers the manifest rules of §2.1 and the fallback
// rules of §8: versions is authoritative, version alone is the only
// version, v1 only when v2 is not declared, and the packages must match.
func TestChooseVersion(t *testing.T) {
	pkg := func(m consumer.Manifest) consumer.Manifest {
		m.ServicePackage, m.AuthorityPackage = "com.example.app", "com.example.app"
		return m
	}
	cases := []struct {
		name string
		m    consumer.Manifest
		want int
		fail bool
	}{
		{"dual stack", pkg(consumer.Manifest{Version: "1", Versions: "1,2"}), 2, false},
		{"v2 only", pkg(consumer.Manifest{Version: "2", Versions: "2"}), 2, false},
		{"versions beat version", pkg(consumer.Manifest{Version: "1", Versions: "2"}), 2, false},
		{"version alone, v1", pkg(consumer.Manifest{Version: "1"}), 1, false},
		{"version alone, v2", pkg(consumer.Manifest{Version: "2"}), 2, false},
		{"spaces", pkg(consumer.Manifest{Versions: " 1 , 2 "}), 2, false},
		{"only a future version", pkg(consumer.Manifest{Versions: "3"}), 0, true},
		{"garbage", pkg(consumer.Manifest{Versions: "2;1"}), 0, true},
		{"nothing declared", pkg(consumer.Manifest{}), 0, true},
		{"other package", consumer.Manifest{Versions: "2", ServicePackage: "com.example.app", AuthorityPackage: "com.evil"}, 0, true},
	}
	for _, tc := range cases {
		got, err := consumer.ChooseVersion(tc.m)
		if got != tc.want || (err != nil) != tc.fail {
			t.Errorf("%s: ChooseVersion = %d, %v", tc.name, got, err)
		}
	}
	if _, err := consumer.ChooseVersion(pkg(consumer.Manifest{Versions: "3,4"})); !errors.Is(err, consumer.ErrNoCommonVersion) {
		t.Errorf("no common version: %v", err)
	}
}
