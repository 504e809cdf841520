-- Added to a copy of tests/data/sqlite/kiwi.db: package foo with two channels, a stranded
-- bundle without manifests, objects around the CSV, a bundle without a bundle path, a core
-- (group "") API with a plural, repeated and malformed property and dependency rows.
INSERT INTO operatorbundle(name, csv, bundle, bundlepath, version, skiprange, replaces, skips) VALUES
 ('foo.v1', NULL, NULL, 'quay.io/foo:v1', '1.0.0', '', '', ''),
 ('foo.v2', '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v2"}}', '{"kind":"ConfigMap","metadata":{"name":"first"}}  {"kind":"ClusterServiceVersion","metadata":{"name":"foo.v2"}}
{"kind":"Secret", "metadata": {"name":"after"}}', '', '2.0.0', '', 'foo.v1', ''),
 ('foo.v3', '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v3"}}',
  '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v3"}}
{"kind":"ConfigMap","metadata":{"name":"cm"}}
', 'quay.io/foo:v3', '3.0.0', '<3.0.0', 'foo.v2', 'foo.v1');
INSERT INTO package(name, default_channel) VALUES ('foo', 'stable');
INSERT INTO channel VALUES ('stable', 'foo', 'foo.v3');
INSERT INTO channel VALUES ('beta', 'foo', 'foo.v2');
INSERT INTO channel_entry(entry_id, channel_name, package_name, operatorbundle_name, replaces, depth) VALUES
 (101, 'stable', 'foo', 'foo.v3', 104, 0),
 (102, 'stable', 'foo', 'foo.v1', NULL, 1),
 (103, 'stable', 'foo', 'foo.v3', 102, 1),
 (104, 'stable', 'foo', 'foo.v2', 105, 2),
 (105, 'stable', 'foo', 'foo.v1', NULL, 3),
 (106, 'beta', 'foo', 'foo.v2', 107, 0),
 (107, 'beta', 'foo', 'foo.v1', NULL, 1);
INSERT INTO api VALUES ('', 'v1', 'ConfigMap', 'configmaps'), ('example.com', 'v1', 'Bar', 'bars');
INSERT INTO properties VALUES
 ('olm.package', '{"packageName":"foo","version":"3.0.0"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.package', '{"packageName":"foo","version":"3.0.0"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.gvk', '{"group":"example.com","kind":"Foo","version":"v1"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.gvk', '{"group":"","kind":"ConfigMap","version":"v1"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.label', '{"label": "a<b"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.gvk', '{"group":"example.com","kind":"Foo","version":"v1"}', 'foo.v2', '2.0.0', NULL),
 ('olm.gvk', '"not an object"', 'foo.v2', '2.0.0', NULL),
 ('olm.gvk', '{"group":"example.com","kind":"Foo","version":"v1"}', 'foo.v1', NULL, NULL);
INSERT INTO dependencies VALUES
 ('olm.package', '{"packageName":"bar","version":">=1.0.0"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.gvk', '{"group":"example.com","kind":"Bar","version":"v1"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.gvk', '{"group":"example.com","kind":"Bar","version":"v1"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.label', '{"label":"x"}', 'foo.v3', NULL, NULL);
