//go:build !unix

package authz

import "io/fs"

// inode is 0 where the platform has no inode numbers; the modification
// time and size still detect a change.
func inode(fs.FileInfo) uint64 { return 0 }
