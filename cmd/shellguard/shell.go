package main

import "github.com/spf13/cobra"

func newShellCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "shell", Hidden: true} }

func newInitCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "init", Hidden: true} }
