# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# mcast4ai as a module of a legacy waf-based ns-3 source tree (ns-3.35 and older).
# Clone or copy this repository to contrib/mcast4ai and run
#
#     ./waf configure --enable-examples --enable-tests && ./waf build
#
# CMake-based trees (ns-3.36 and later) use CMakeLists.txt instead, which also builds the
# module standalone against Debian's libns3-dev. This file is not exercised by CI.
#
# Besides ns-3 (core, network, internet) the module needs two header-only libraries:
# nlohmann/json (Debian: nlohmann-json3-dev) and Boost.Graph (Debian: libboost-graph-dev).
# If either is missing, configure reports it and the module is not built.

import subprocess

MODULE = 'mcast4ai'


def options(opt):
    pass


def configure(conf):
    missing = []
    if not conf.check_cxx(header_name='nlohmann/json.hpp',
                          msg='Checking for nlohmann/json (nlohmann/json.hpp)',
                          define_name='HAVE_NLOHMANN_JSON', mandatory=False):
        missing.append('nlohmann/json.hpp (Debian: nlohmann-json3-dev)')
    if not conf.check_cxx(header_name='boost/graph/adjacency_list.hpp',
                          msg='Checking for Boost.Graph (boost/graph/adjacency_list.hpp)',
                          define_name='HAVE_BOOST_GRAPH', mandatory=False):
        missing.append('boost/graph/adjacency_list.hpp (Debian: libboost-graph-dev)')

    enabled = not missing
    conf.report_optional_feature(MODULE, 'mcast4ai RoCEv2 fabric simulator', enabled,
                                 'missing ' + ', '.join(missing))
    if not enabled:
        conf.env.append_value('MODULES_NOT_BUILT', MODULE)


def _revision(path):
    """`git describe` of this module, for summary.json's "revision" field."""
    try:
        out = subprocess.check_output(['git', 'describe', '--always', '--dirty'],
                                      cwd=path, stderr=subprocess.DEVNULL)
        return out.decode().strip() or 'unknown'
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


def _ns3_version_defines(path):
    """The ns-3 release, from the tree's VERSION file, for src/core/model/ns3-compat.h."""
    import os
    import re
    try:
        with open(os.path.join(path, '..', '..', 'VERSION')) as f:
            version = f.read().strip()
    except OSError:
        version = 'unknown'
    m = re.match(r'(\d+)\.(\d+)', version)
    major, minor = (m.group(1), m.group(2)) if m else ('3', '9999')
    return ['MCAST4AI_NS3_VERSION_MAJOR=%s' % major, 'MCAST4AI_NS3_VERSION_MINOR=%s' % minor,
            'MCAST4AI_NS3_VERSION_STRING="%s"' % version]


def build(bld):
    if MODULE in bld.env['MODULES_NOT_BUILT']:
        return

    # ns3header and the module take paths relative to this directory, as strings.
    def glob(pattern):
        return sorted(node.path_from(bld.path) for node in bld.path.ant_glob(pattern))

    module = bld.create_ns3_module(MODULE, ['core', 'network', 'internet'])
    module.source = glob('src/*/model/*.cc') + glob('src/*/helper/*.cc')
    # Sources include each other as "rdma/model/bth-header.h": src/ is on the include path
    # of the module and of everything that uses it (tests, examples, user programs).
    module.includes = ['src']
    module.export_includes = ['src']
    module.defines = (['MCAST4AI_REVISION="%s"' % _revision(bld.path.abspath())]
                      + _ns3_version_defines(bld.path.abspath()))
    module.export_defines = _ns3_version_defines(bld.path.abspath())

    module_test = bld.create_ns3_module_test_library(MODULE)
    module_test.source = glob('test/ns3/*.cc')
    module_test.includes = ['src', 'test/ns3']

    headers = bld(features='ns3header')
    headers.module = MODULE
    headers.source = glob('src/*/model/*.h') + glob('src/*/helper/*.h')

    if bld.env.ENABLE_EXAMPLES:
        runner = bld.create_ns3_program('mcast4ai-run', [MODULE])
        runner.source = 'examples/mcast4ai-run.cc'
        example = bld.create_ns3_program('mcast4ai-p2mp-example', [MODULE])
        example.source = 'examples/p2mp-broadcast.cc'
        helpers = bld.create_ns3_program('mcast4ai-helpers-example', [MODULE])
        helpers.source = 'examples/helpers-rdma-write.cc'
