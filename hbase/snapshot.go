package hbase

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

// Snapshot is a completed snapshot of a table.
type Snapshot struct {
	Name    string
	Table   string
	Created time.Time
}

// TakeSnapshot snapshots table as name (the memstores flushed first), and
// waits until the master's procedure is done, or, from a master that gives
// no procedure id, until it says the snapshot is done.
func (a *Admin) TakeSnapshot(ctx context.Context, table, name string) error {
	what := fmt.Sprintf("snapshot %s as %s", table, name)
	desc := &pb.SnapshotDescription{Name: proto.String(name), Table: proto.String(table), Type: pb.SnapshotDescription_FLUSH.Enum()}
	g, n := a.nonces()
	var resp pb.SnapshotResponse
	if err := a.callMaster(ctx, what, "Snapshot", &pb.SnapshotRequest{Snapshot: desc, NonceGroup: g, Nonce: n}, &resp); err != nil {
		return err
	}
	if resp.ProcId != nil {
		// A master that runs snapshots as procedures (2.5 on) gives the id.
		return a.waitProcedure(ctx, what, uint64(resp.GetProcId()))
	}
	pause := 50 * time.Millisecond
	for {
		var done pb.IsSnapshotDoneResponse
		if err := a.callMaster(ctx, what, "IsSnapshotDone", &pb.IsSnapshotDoneRequest{Snapshot: desc}, &done); err != nil {
			return err
		}
		if done.GetDone() {
			return nil
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("hbase: %s: waiting for the snapshot: %w", what, ctx.Err())
		}
		pause = min(pause*2, time.Second)
	}
}

// Snapshots lists the completed snapshots, by name.
func (a *Admin) Snapshots(ctx context.Context) ([]Snapshot, error) {
	var resp pb.GetCompletedSnapshotsResponse
	if err := a.callMaster(ctx, "list snapshots", "GetCompletedSnapshots", &pb.GetCompletedSnapshotsRequest{}, &resp); err != nil {
		return nil, err
	}
	var out []Snapshot
	for _, s := range resp.GetSnapshots() {
		out = append(out, Snapshot{Name: s.GetName(), Table: strings.TrimPrefix(s.GetTable(), "default:"), Created: time.UnixMilli(s.GetCreationTime())})
	}
	slices.SortFunc(out, func(x, y Snapshot) int { return strings.Compare(x.Name, y.Name) })
	return out, nil
}

// DeleteSnapshot deletes the snapshot name.
func (a *Admin) DeleteSnapshot(ctx context.Context, name string) error {
	var resp pb.DeleteSnapshotResponse
	return a.callMaster(ctx, "delete snapshot "+name, "DeleteSnapshot", &pb.DeleteSnapshotRequest{Snapshot: &pb.SnapshotDescription{Name: proto.String(name)}}, &resp)
}

// RestoreSnapshot puts table back as snapshot name holds it: the table is
// disabled, restored by the master's procedure, and enabled again (also
// when the restore fails).
func (a *Admin) RestoreSnapshot(ctx context.Context, table, name string) (err error) {
	what := fmt.Sprintf("restore %s from snapshot %s", table, name)
	if err := a.DisableTable(ctx, table); err != nil {
		return err
	}
	defer func() {
		if enErr := a.EnableTable(ctx, table); enErr != nil && err == nil {
			err = enErr
		}
	}()
	return a.restoreSnapshot(ctx, what, table, name)
}

// CloneSnapshot makes the new table table from snapshot name, and waits
// until the master's procedure is done. The master takes the RPC it
// restores by: given a table that does not exist, it clones.
func (a *Admin) CloneSnapshot(ctx context.Context, name, table string) error {
	return a.restoreSnapshot(ctx, fmt.Sprintf("clone snapshot %s as %s", name, table), table, name)
}

// restoreSnapshot sends the RestoreSnapshot RPC for snapshot name into
// table, and waits for the master's procedure: a restore when table
// exists, a clone when it does not.
func (a *Admin) restoreSnapshot(ctx context.Context, what, table, name string) error {
	g, n := a.nonces()
	req := &pb.RestoreSnapshotRequest{Snapshot: &pb.SnapshotDescription{Name: proto.String(name), Table: proto.String(table)}, NonceGroup: g, Nonce: n}
	var resp pb.RestoreSnapshotResponse
	if err := a.callMaster(ctx, what, "RestoreSnapshot", req, &resp); err != nil {
		return err
	}
	a.c.cache.removeTable(table)
	return a.waitProcedure(ctx, what, resp.GetProcId())
}
