# Targets for the local single-node HBase used by integration tests.
# Include from the top-level Makefile: include scripts/hbase/hbase.mk

HBASE_SCRIPTS := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: hbase-up hbase-down hbase-status hbase-up-secure hbase-down-secure hbase-status-secure

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
