package main

import "github.com/spf13/cobra"

func newHookCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "hook", Hidden: true} }

func newInstallCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "install", Hidden: true} }

func newUninstallCmd(s *streams) *cobra.Command {
	return &cobra.Command{Use: "uninstall", Hidden: true}
}

func newDoctorCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "doctor", Hidden: true} }
