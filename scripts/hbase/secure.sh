# Security modes of scripts/hbase/up: TLS certificates, a Kerberos KDC and
# the settings that turn them on. Source it after lib.sh; do not run it.
# shellcheck shell=bash

TLS_PASSWORD=rkqltest

# make_certs writes a CA, a server certificate for 127.0.0.1 and localhost
# signed by it (PEM and PKCS12), a client certificate, and a second CA that
# signed nothing (for tests of a wrong trust store).
make_certs() {
  command -v openssl >/dev/null 2>&1 || die "the tls mode needs openssl"
  local d="$SECURE_DIR/tls"
  mkdir -p "$d"
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
  (
    cd "$d"
    openssl req -x509 "${ec[@]}" -keyout ca-key.pem -out ca.pem -days 7 -subj "/CN=rkql test CA"
    openssl req -x509 "${ec[@]}" -keyout other-ca-key.pem -out other-ca.pem -days 7 -subj "/CN=rkql other CA"
    openssl req "${ec[@]}" -keyout server-key.pem -out server.csr -subj "/CN=localhost"
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out server.pem -days 7 -extfile server.ext
    openssl pkcs12 -export -in server.pem -inkey server-key.pem -certfile ca.pem -out server.p12 -passout "pass:$TLS_PASSWORD"
    openssl req "${ec[@]}" -keyout client-key.pem -out client.csr -subj "/CN=rkql"
    # HBase checks a client certificate's host name too
    # (hbase.server.netty.tls.verify.client.hostname).
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out client-cert.pem -days 7 -extfile client.ext
    cat client-cert.pem client-key.pem >client.pem
    rm -f ./*.csr ./*.ext ./*.srl
  ) >"$d/openssl.log" 2>&1 || { cat "$d/openssl.log" >&2; die "could not make the test certificates"; }
}

# start_kdc starts Hadoop's MiniKdc on 127.0.0.1:$KDC_PORT with the
# principals hbase/localhost (the servers), rkql (a superuser) and reader
# (no grants), all in one keytab, and writes krb5.conf.
start_kdc() {
  resolve_classpath "$HBASE_SCRIPT_DIR/kdc" "$KDC_CLASSPATH_FILE"
  stop_kdc
  port_in_use "$KDC_PORT" && die "port 127.0.0.1:$KDC_PORT (the KDC, RKQL_HBASE_KDC_PORT) is taken by another process"
  local d="$SECURE_DIR/kdc"
  mkdir -p "$d"
  cat >"$d/kdc.properties" <<PROPS
org.name=RKQL
org.domain=TEST
kdc.bind.address=127.0.0.1
kdc.port=$KDC_PORT
transport=TCP
max.ticket.lifetime=86400000
PROPS
  setsid "$JAVA" "-Drkql.hbase.run=$RUN_DIR" -Xmx128m -XX:TieredStopAtLevel=1 \
    -cp "$(<"$KDC_CLASSPATH_FILE")" "$KDC_MAIN_CLASS" \
    "$d" "$d/kdc.properties" "$SECURE_DIR/rkql.keytab" hbase/localhost rkql reader \
    </dev/null >"$RUN_DIR/kdc.out" 2>&1 9>&- &
  echo $! >"$KDC_PID_FILE"
  local waited=0
  until grep -q "MiniKdc Running" "$RUN_DIR/kdc.out" 2>/dev/null; do
    if ! our_pid "$KDC_PID_FILE" "$KDC_MAIN_CLASS" >/dev/null; then
      tail -n 30 "$RUN_DIR/kdc.out" >&2
      die "the KDC exited at once"
    fi
    ((waited++ < 600)) || die "the KDC did not start within 60s (log: $RUN_DIR/kdc.out)"
    sleep 0.1
  done
  cat >"$SECURE_DIR/krb5.conf" <<CONF
[libdefaults]
  default_realm = $REALM
  udp_preference_limit = 1
  dns_lookup_kdc = false
  dns_lookup_realm = false
  rdns = false

[realms]
  $REALM = {
    kdc = 127.0.0.1:$KDC_PORT
  }
CONF
}

# secure_server_properties prints the hbase-site.xml properties of the mode.
secure_server_properties() {
  if has_security tls; then
    xml_property hbase.server.netty.tls.enabled true
    # With Kerberos too, plaintext stays allowed so that the SASL layers
    # can be tested on their own.
    if has_security kerberos; then
      xml_property hbase.server.netty.tls.supportplaintext true
    else
      xml_property hbase.server.netty.tls.supportplaintext false
    fi
    xml_property hbase.server.netty.tls.client.auth.mode WANT
    xml_property hbase.rpc.tls.keystore.location "$SECURE_DIR/tls/server.p12"
    xml_property hbase.rpc.tls.keystore.type PKCS12
    xml_property hbase.rpc.tls.keystore.password "$TLS_PASSWORD"
    xml_property hbase.rpc.tls.truststore.location "$SECURE_DIR/tls/ca.pem"
    xml_property hbase.rpc.tls.truststore.type PEM
    # The servers' own client connections (region server to master).
    xml_property hbase.client.netty.tls.enabled true
  fi
  if has_security kerberos; then
    xml_property hadoop.security.authentication kerberos
    xml_property hbase.security.authentication kerberos
    xml_property hbase.security.authorization true
    xml_property hbase.coprocessor.master.classes org.apache.hadoop.hbase.security.access.AccessController
    xml_property hbase.coprocessor.region.classes org.apache.hadoop.hbase.security.access.AccessController
    xml_property hbase.coprocessor.regionserver.classes org.apache.hadoop.hbase.security.access.AccessController
    xml_property hbase.superuser rkql
    xml_property hbase.master.kerberos.principal "hbase/localhost@$REALM"
    xml_property hbase.master.keytab.file "$SECURE_DIR/rkql.keytab"
    xml_property hbase.regionserver.kerberos.principal "hbase/localhost@$REALM"
    xml_property hbase.regionserver.keytab.file "$SECURE_DIR/rkql.keytab"
    xml_property hbase.rpc.protection authentication,integrity,privacy
  fi
}

# client_properties prints what a client of this instance needs.
client_properties() {
  xml_property hbase.zookeeper.quorum 127.0.0.1
  xml_property hbase.zookeeper.property.clientPort "$ZK_PORT"
  xml_property zookeeper.znode.parent /hbase
  if has_security tls; then
    xml_property hbase.client.netty.tls.enabled true
    xml_property hbase.rpc.tls.truststore.location "$SECURE_DIR/tls/ca.pem"
    xml_property hbase.rpc.tls.truststore.type PEM
  fi
  if has_security kerberos; then
    xml_property hbase.security.authentication kerberos
    xml_property hbase.master.kerberos.principal "hbase/_HOST@$REALM"
    xml_property hbase.regionserver.kerberos.principal "hbase/_HOST@$REALM"
  fi
}

# write_secure_confs writes client/hbase-site.xml for clients and
# probe/{hbase,core}-site.xml for the readiness probe (which logs in as
# rkql from the keytab).
write_secure_confs() {
  mkdir -p "$SECURE_DIR/client" "$SECURE_DIR/probe"
  {
    echo '<?xml version="1.0"?>'
    echo "<!-- Written by scripts/hbase/up for clients of the $SECURITY HBase on 127.0.0.1:$ZK_PORT. -->"
    echo '<configuration>'
    client_properties
    echo '</configuration>'
  } >"$SECURE_DIR/client/hbase-site.xml"
  {
    echo '<?xml version="1.0"?>'
    echo '<configuration>'
    client_properties
    if has_security kerberos; then
      xml_property hadoop.security.authentication kerberos
      xml_property hbase.client.keytab.file "$SECURE_DIR/rkql.keytab"
      xml_property hbase.client.keytab.principal "rkql@$REALM"
    fi
    echo '</configuration>'
  } >"$SECURE_DIR/probe/hbase-site.xml"
  {
    echo '<?xml version="1.0"?>'
    echo '<configuration>'
    if has_security kerberos; then
      xml_property hadoop.security.authentication kerberos
    fi
    echo '</configuration>'
  } >"$SECURE_DIR/probe/core-site.xml"
}

# prepare_security makes what the mode needs before HBase starts.
prepare_security() {
  [[ -n "$SECURITY" ]] || return 0
  rm -rf "$SECURE_DIR"
  mkdir -p "$SECURE_DIR"
  if has_security tls; then make_certs; fi
  if has_security kerberos; then start_kdc; fi
  write_secure_confs
}
