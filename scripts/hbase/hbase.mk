# Targets for the local single-node HBase used by integration tests.
# Include from the top-level Makefile: include scripts/hbase/hbase.mk

HBASE_SCRIPTS := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: hbase-up hbase-down hbase-status hbase-up-secure hbase-down-secure hbase-status-secure \
	hbase-up-phoenix hbase-down-phoenix hbase-status-phoenix

hbase-up: ## start HBase on 127.0.0.1 (ZooKeeper on $${RKQL_HBASE_ZK_PORT:-2181}) and wait until it serves
	@$(HBASE_SCRIPTS)/up

hbase-down: ## stop the HBase started by hbase-up and remove its data
	@$(HBASE_SCRIPTS)/down

hbase-status: ## exit 0 if the HBase started by hbase-up answers
	@$(HBASE_SCRIPTS)/status

hbase-up-secure: ## start a Kerberos and TLS HBase (ZooKeeper on $${RKQL_HBASE_ZK_PORT:-2183}, KDC on $${RKQL_HBASE_KDC_PORT:-16288}) beside the plain one
	@RKQL_HBASE_SECURITY=kerberos,tls $(HBASE_SCRIPTS)/up

hbase-down-secure: ## stop the HBase and KDC started by hbase-up-secure and remove their data
	@RKQL_HBASE_SECURITY=kerberos,tls $(HBASE_SCRIPTS)/down

hbase-status-secure: ## exit 0 if the HBase started by hbase-up-secure answers
	@RKQL_HBASE_SECURITY=kerberos,tls $(HBASE_SCRIPTS)/status

hbase-up-phoenix: ## start an HBase with Phoenix 5.2.1 (ZooKeeper on $${RKQL_HBASE_ZK_PORT:-2185}) beside the plain one; waits for the first Phoenix connection
	@RKQL_HBASE_PHOENIX=1 $(HBASE_SCRIPTS)/up

hbase-down-phoenix: ## stop the HBase started by hbase-up-phoenix and remove its data
	@RKQL_HBASE_PHOENIX=1 $(HBASE_SCRIPTS)/down

hbase-status-phoenix: ## exit 0 if the HBase started by hbase-up-phoenix answers and Phoenix's SYSTEM tables exist
	@RKQL_HBASE_PHOENIX=1 $(HBASE_SCRIPTS)/status
