package main

import (
	"os"
	"path/filepath"
)

// replaceFile writes data to name with mode perm, whether or not name
// exists: into a new file beside it, renamed over it once complete. So a
// file that was readable by others before (an earlier export of the same
// game) is replaced, not rewritten in place with its old mode, and a
// reader never sees half a file.
func replaceFile(name string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after a failure; a no-op once renamed
	if _, err = f.Write(data); err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// createPrivate creates name for writing, mode 0600, emptying it when it
// exists and setting its mode to 0600 in any case: for logs that hold
// what only the operator may read.
func createPrivate(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
