# xml/: the XML schemas ltt installs, in $(datadir)/ltt/xml.
#   mi.xsd        lttctl --mi xml documents (doc/mi.md): ltt's own, and
#                 LTTng's namespace through lttng-mi.xsd, which it imports
#   lttng-mi.xsd  what lttctl writes in LTTng's namespace
ltt_xmldir = $(pkgdatadir)/xml
dist_ltt_xml_DATA = xml/mi.xsd xml/lttng-mi.xsd
