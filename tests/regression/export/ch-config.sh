#!/bin/sh
# ch-config.sh DIR HTTP_PORT TCP_PORT: the configuration of a clickhouse-server
# of one's own (export-lib.sh's ch_start, bench/export.sh): DIR/config.xml
# and DIR/users.xml, its data, logs and files under DIR, listening on
# 127.0.0.1 only, the default user without password from there.
dir=$1 http=$2 tcp=$3
mkdir -p "$dir" || exit 1
cat >"$dir/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
XML
cat >"$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>information</level><log>$dir/server.log</log>
    <errorlog>$dir/server.err.log</errorlog><console>0</console></logger>
  <http_port>$http</http_port>
  <tcp_port>$tcp</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
</yandex>
XML
