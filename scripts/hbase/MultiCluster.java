import java.io.File;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * Runs a standalone HBase with several region servers in one JVM: an
 * embedded ZooKeeper, one master and N region servers, each region server
 * on its own RPC port.
 *
 * <pre>
 * MultiCluster SERVERS FIRST_RS_PORT
 *   region server i listens on FIRST_RS_PORT + i; the rest of the settings
 *   (ZooKeeper port and data directory, master port, root directory) come
 *   from hbase-site.xml on the classpath.
 * </pre>
 *
 * SIGTERM stops the region servers, the master and ZooKeeper.
 */
public final class MultiCluster {
  private MultiCluster() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: MultiCluster SERVERS FIRST_RS_PORT");
      System.exit(2);
    }
    int servers = Integer.parseInt(args[0]);
    int firstPort = Integer.parseInt(args[1]);
    // Region servers in one JVM register the same metrics sources; the
    // metrics system's mini-cluster mode gives each a unique name.
    DefaultMetricsSystem.setMiniClusterMode(true);
    Configuration conf = HBaseConfiguration.create();
    int zkPort = conf.getInt(HConstants.ZOOKEEPER_CLIENT_PORT, 2181);

    MiniZooKeeperCluster zk = new MiniZooKeeperCluster(conf);
    zk.setDefaultClientPort(zkPort);
    zk.setTickTime(conf.getInt("hbase.zookeeper.property.tickTime", 2000));
    int got = zk.startup(new File(conf.get(HConstants.ZOOKEEPER_DATA_DIR)));
    if (got != zkPort) {
      System.err.println("ZooKeeper started on port " + got + ", not " + zkPort);
      zk.shutdown();
      System.exit(1);
    }

    LocalHBaseCluster cluster =
        new LocalHBaseCluster(conf, 1, 0, HMaster.class, HRegionServer.class);
    for (int i = 0; i < servers; i++) {
      Configuration rs = HBaseConfiguration.create(conf);
      rs.setInt(HConstants.REGIONSERVER_PORT, firstPort + i);
      cluster.addRegionServer(rs, i);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      cluster.shutdown();
      cluster.join();
      try {
        zk.shutdown();
      } catch (Exception e) {
        // The process is ending; its data directory is removed by down.
      }
    }, "multicluster-shutdown"));
    cluster.startup();
    cluster.join();
    zk.shutdown();
  }
}
