package hbasestore

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
)

var _ exec.Maintainer = (*Store)(nil)

// Flush implements exec.Maintainer.
func (s *Store) Flush(ctx context.Context, table string) error {
	return s.c.Admin().Flush(ctx, table)
}

// Compact implements exec.Maintainer.
func (s *Store) Compact(ctx context.Context, table string, major bool, progress func(done, total int)) error {
	return s.c.Admin().Compact(ctx, table, major, progress)
}

// Split implements exec.Maintainer.
func (s *Store) Split(ctx context.Context, table string, key []byte) error {
	return s.c.Admin().Split(ctx, table, key)
}

// Merge implements exec.Maintainer: the regions are found by their start
// keys in hbase:meta.
func (s *Store) Merge(ctx context.Context, table string, starts [][]byte) error {
	a := s.c.Admin()
	regions, err := a.Regions(ctx, table)
	if err != nil {
		return err
	}
	var names [][]byte
	for _, k := range starts {
		found := false
		for _, r := range regions {
			if bytes.Equal(r.StartKey, k) {
				names = append(names, r.Name)
				found = true
				break
			}
		}
		if !found {
			var have []string
			for _, r := range regions {
				have = append(have, "'"+catalog.ToStringBinary(r.StartKey)+"'")
			}
			return fmt.Errorf("no region of %s starts at '%s' (regions start at %s)", table, catalog.ToStringBinary(k), strings.Join(have, ", "))
		}
	}
	return a.Merge(ctx, table, names...)
}

// StoreFiles implements exec.Maintainer.
func (s *Store) StoreFiles(ctx context.Context, table string) (int, error) {
	files, _, err := s.c.Admin().StoreFiles(ctx, table)
	n := 0
	for _, k := range files {
		n += k
	}
	return n, err
}

// SetBalancer implements exec.Maintainer.
func (s *Store) SetBalancer(ctx context.Context, on bool) (bool, error) {
	return s.c.Admin().SetBalancer(ctx, on)
}

// BalancerEnabled implements exec.Maintainer.
func (s *Store) BalancerEnabled(ctx context.Context) (bool, error) {
	return s.c.Admin().BalancerEnabled(ctx)
}

// ClusterStatus implements exec.StatusReporter.
func (s *Store) ClusterStatus(ctx context.Context) (*exec.ClusterStatus, error) {
	cs, err := s.c.Admin().ClusterStatus(ctx)
	if err != nil {
		return nil, err
	}
	out := &exec.ClusterStatus{Master: cs.Master, BalancerOn: cs.BalancerOn, Dead: cs.Dead}
	for _, v := range cs.Live {
		out.Servers = append(out.Servers, exec.ServerStatus{Server: v.Server, Regions: v.Regions,
			RequestsPerSecond: v.RequestsPerSecond, Requests: v.TotalRequests, StoreFiles: v.StoreFiles,
			StoreFileMB: v.StoreFileMB, MemStoreMB: v.MemStoreMB, UsedHeapMB: v.UsedHeapMB, MaxHeapMB: v.MaxHeapMB})
	}
	for _, r := range cs.InTransition {
		out.InTransition = append(out.InTransition, fmt.Sprintf("%s %s since %s", r.Region, r.State, r.Since.UTC().Format("2006-01-02 15:04:05")))
	}
	return out, nil
}

var _ exec.RegionChecker = (*Store)(nil)

// CheckRegions implements exec.RegionChecker.
func (s *Store) CheckRegions(ctx context.Context, tables []string) ([]exec.TableRegions, error) {
	hs, err := s.c.Admin().CheckTables(ctx, tables)
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]exec.TableRegions, len(hs))
	for i, h := range hs {
		out[i] = exec.TableRegions{Table: h.Table, State: h.State, Regions: len(h.Regions)}
		for _, f := range h.Faults {
			rf := exec.RegionFault{Problem: string(f.Kind), Start: f.Start, End: f.End, Detail: f.Detail}
			if f.Region != nil {
				rf.Region = string(f.Region.Name)
			}
			out[i].Faults = append(out[i].Faults, rf)
		}
	}
	return out, nil
}

// TakeSnapshot implements exec.Snapshotter.
func (s *Store) TakeSnapshot(ctx context.Context, table, name string) error {
	return s.c.Admin().TakeSnapshot(ctx, table, name)
}

// Snapshots implements exec.Snapshotter.
func (s *Store) Snapshots(ctx context.Context) ([]exec.Snapshot, error) {
	list, err := s.c.Admin().Snapshots(ctx)
	var out []exec.Snapshot
	for _, x := range list {
		out = append(out, exec.Snapshot{Name: x.Name, Table: x.Table, Created: x.Created})
	}
	return out, err
}

// DeleteSnapshot implements exec.Snapshotter.
func (s *Store) DeleteSnapshot(ctx context.Context, name string) error {
	return s.c.Admin().DeleteSnapshot(ctx, name)
}

// RestoreSnapshot implements exec.Snapshotter.
func (s *Store) RestoreSnapshot(ctx context.Context, table, name string) error {
	return s.c.Admin().RestoreSnapshot(ctx, table, name)
}

// CloneSnapshot implements exec.Snapshotter.
func (s *Store) CloneSnapshot(ctx context.Context, name, table string) error {
	return s.c.Admin().CloneSnapshot(ctx, name, table)
}
