# xml/: the XML schemas ltt installs, in $(datadir)/ltt/xml.
#   mi.xsd   lttctl --mi xml documents (doc/mi.md)
ltt_xmldir = $(pkgdatadir)/xml
dist_ltt_xml_DATA = xml/mi.xsd
