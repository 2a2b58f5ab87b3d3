import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What HBase's Java client sees of a table's regions.
 *
 * <pre>
 * RegionCheck storefiles HOST PORT TABLE
 *   the store files of the table's regions, summed over what each live
 *   region server last reported
 * RegionCheck starts HOST PORT TABLE
 *   each region's start key in hex, one a line ("-" for the first)
 * RegionCheck balancer HOST PORT
 *   "on" or "off"
 * RegionCheck snapshots HOST PORT TABLE
 *   the names of the table's snapshots, comma-separated ("-" for none)
 * RegionCheck rows HOST PORT TABLE
 *   the number of rows a full scan of the table returns
 * RegionCheck servers HOST PORT
 *   the number of live region servers
 * RegionCheck metastate HOST PORT REGION
 *   the info:state of the region's row in hbase:meta ("-" for none); the
 *   region name is in hex
 * RegionCheck unassign HOST PORT REGION
 * RegionCheck assign HOST PORT REGION
 *   has the master close the region, or open it, and prints "ok"
 * RegionCheck serve
 *   reads such commands a line each from standard input, and prints "--"
 *   after each answer
 * RegionCheck until WANT SECONDS CHECK…
 *   CHECK again until it prints WANT ("\\n" for a line break) or SECONDS
 *   pass, then what it printed last: region servers report their store
 *   files every few seconds
 * </pre>
 */
public final class RegionCheck {
  private RegionCheck() {
  }

  public static void main(String[] args) throws Exception {
    if (!args[0].equals("serve")) {
      System.out.println(until(args));
      return;
    }
    java.io.BufferedReader in = new java.io.BufferedReader(
        new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      System.out.println(until(line.trim().split(" ")));
      System.out.println("--");
      System.out.flush();
    }
  }

  private static Connection conn;

  private static String until(String[] args) throws Exception {
    String want = null;
    long deadline = 0;
    if (args[0].equals("until")) {
      want = args[1].replace("\\n", "\n");
      deadline = System.currentTimeMillis() + Long.parseLong(args[2]) * 1000L;
      args = java.util.Arrays.copyOfRange(args, 3, args.length);
    }
    if (conn == null) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", args[1]);
      conf.set("hbase.zookeeper.property.clientPort", args[2]);
      conn = ConnectionFactory.createConnection(conf);
    }
    try (Admin admin = conn.getAdmin()) {
      String got = check(conn, admin, args);
      while (want != null && !got.equals(want) && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
        got = check(conn, admin, args);
      }
      return got;
    }
  }

  private static String check(Connection conn, Admin admin, String[] args) throws Exception {
    switch (args[0]) {
      case "storefiles": {
        TableName name = TableName.valueOf(args[3]);
        ClusterMetrics cm = admin.getClusterMetrics();
        long n = 0;
        for (ServerName sn : cm.getLiveServerMetrics().keySet()) {
          List<RegionMetrics> rms = admin.getRegionMetrics(sn, name);
          for (RegionMetrics rm : rms) {
            n += rm.getStoreFileCount();
          }
        }
        return Long.toString(n);
      }
      case "starts": {
        StringBuilder b = new StringBuilder();
        try (RegionLocator loc = conn.getRegionLocator(TableName.valueOf(args[3]))) {
          for (byte[] k : loc.getStartKeys()) {
            if (b.length() > 0) {
              b.append("\n");
            }
            b.append(k.length == 0 ? "-" : Bytes.toHex(k));
          }
        }
        return b.toString();
      }
      case "balancer":
        return admin.isBalancerEnabled() ? "on" : "off";
      case "snapshots": {
        StringBuilder b = new StringBuilder();
        for (org.apache.hadoop.hbase.client.SnapshotDescription d : admin.listSnapshots()) {
          if (d.getTableNameAsString().equals(args[3])) {
            b.append(b.length() > 0 ? "," : "").append(d.getName());
          }
        }
        return b.length() == 0 ? "-" : b.toString();
      }
      case "rows": {
        long n = 0;
        try (org.apache.hadoop.hbase.client.Table t = conn.getTable(TableName.valueOf(args[3]));
            org.apache.hadoop.hbase.client.ResultScanner rs = t.getScanner(new org.apache.hadoop.hbase.client.Scan())) {
          for (org.apache.hadoop.hbase.client.Result r : rs) {
            n++;
          }
        }
        return Long.toString(n);
      }
      case "cells": {
        // Each cell as row family:qualifier value, in hex, in scan order.
        StringBuilder b = new StringBuilder();
        try (org.apache.hadoop.hbase.client.Table t = conn.getTable(TableName.valueOf(args[3]));
            org.apache.hadoop.hbase.client.ResultScanner rs = t.getScanner(new org.apache.hadoop.hbase.client.Scan())) {
          for (org.apache.hadoop.hbase.client.Result r : rs) {
            for (org.apache.hadoop.hbase.Cell c : r.rawCells()) {
              b.append(b.length() > 0 ? ";" : "")
                  .append(Bytes.toHex(org.apache.hadoop.hbase.CellUtil.cloneRow(c))).append(' ')
                  .append(Bytes.toHex(org.apache.hadoop.hbase.CellUtil.cloneFamily(c))).append(':')
                  .append(Bytes.toHex(org.apache.hadoop.hbase.CellUtil.cloneQualifier(c))).append(' ')
                  .append(Bytes.toHex(org.apache.hadoop.hbase.CellUtil.cloneValue(c)));
            }
          }
        }
        return b.length() == 0 ? "-" : b.toString();
      }
      case "servers":
        return Integer.toString(admin.getClusterMetrics().getLiveServerMetrics().size());
      case "metastate": {
        byte[] info = Bytes.toBytes("info");
        byte[] state = Bytes.toBytes("state");
        try (org.apache.hadoop.hbase.client.Table meta = conn.getTable(TableName.META_TABLE_NAME)) {
          byte[] v = meta.get(new org.apache.hadoop.hbase.client.Get(Bytes.fromHex(args[3])).addColumn(info, state))
              .getValue(info, state);
          return v == null ? "-" : Bytes.toString(v);
        }
      }
      case "unassign":
        admin.unassign(Bytes.fromHex(args[3]));
        return "ok";
      case "assign":
        admin.assign(Bytes.fromHex(args[3]));
        return "ok";
      default:
        System.err.println("usage: RegionCheck [until WANT SECONDS] storefiles|starts|balancer HOST PORT [TABLE]");
        System.exit(2);
        return "";
    }
  }
}
