package consumer

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Manifest holds the discovery facts of a Provider's manifest (§2.1): the
// com.clawseed.tools.version and com.clawseed.tools.versions meta-data
// values ("" when absent) and the packages of the discovered Service and
// of the ContentProvider that owns the authority.
type Manifest struct {
	Version          string
	Versions         string
	ServicePackage   string
	AuthorityPackage string
}

// ErrNoCommonVersion is returned by ChooseVersion when the manifest
// declares no version this client speaks.
var ErrNoCommonVersion = errors.New("cetp: the Provider declares no version this Consumer speaks")

// ChooseVersion decides how to talk to a Provider from its manifest alone
// (§2.1, §8): versions, when present, is the authoritative set and version
// only serves old Consumers; version alone is the only supported version.
// It returns 2 whenever the Provider declares 2: the Consumer must then
// negotiate v2, and when that fails it disables the Provider, never falling
// back to v1. It returns 1 only for a Provider that declares v1 and not
// v2. The Service and the authority must belong to the same package.
func ChooseVersion(m Manifest) (int, error) {
	if m.ServicePackage == "" || m.ServicePackage != m.AuthorityPackage {
		return 0, fmt.Errorf("cetp: discovery Service package %q and authority package %q differ", m.ServicePackage, m.AuthorityPackage)
	}
	declared, err := declaredVersions(m)
	if err != nil {
		return 0, err
	}
	switch {
	case slices.Contains(declared, protocol.Version2):
		return protocol.Version2, nil
	case slices.Contains(declared, protocol.Version1):
		return protocol.Version1, nil
	}
	return 0, ErrNoCommonVersion
}

// declaredVersions parses the authoritative version set of m.
func declaredVersions(m Manifest) ([]int, error) {
	raw := m.Versions
	if raw == "" {
		raw = m.Version
	}
	if raw == "" {
		return nil, errors.New("cetp: the manifest declares neither version nor versions")
	}
	var out []int
	for _, part := range strings.Split(raw, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("cetp: manifest version list %q is not comma-separated major versions", protocol.Truncate(raw, 64))
		}
		out = append(out, v)
	}
	return out, nil
}
